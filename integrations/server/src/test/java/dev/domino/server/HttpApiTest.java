package dev.domino.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The HTTP API with a plain HTTP client: limits, refusals, metrics, text completions, cancellation on disconnect. */
class HttpApiTest {
    static final HttpClient HTTP = HttpClient.newHttpClient();

    static HttpResponse<String> post(String base, String path, String body) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(TinyServer.REQUEST_TIMEOUT)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    static String root() { return TinyServer.baseUrl().replace("/v1", ""); }

    @Test
    void refusalsAreOpenAiErrorsNamingTheField() throws Exception {
        String base = TinyServer.baseUrl();
        HttpResponse<String> r = post(base, "/chat/completions", "{\"model\":\"tiny\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"logit_bias\":{\"5\":10}}");
        assertThat(r.statusCode()).isEqualTo(400);
        JsonNode e = TinyServer.parse(r.body()).get("error");
        assertThat(e.get("param").asText()).isEqualTo("logit_bias");
        assertThat(e.get("type").asText()).isEqualTo("invalid_request_error");

        r = post(base, "/chat/completions", "{\"model\":\"tiny\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"guided_decoding_backend\":\"x\"}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(TinyServer.parse(r.body()).at("/error/param").asText()).isEqualTo("guided_decoding_backend");

        r = post(base, "/chat/completions", "{\"model\":\"tiny\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],"
                + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\"}}],\"tool_choice\":\"always\"}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(TinyServer.parse(r.body()).at("/error/param").asText()).isEqualTo("tool_choice");

        r = post(base, "/chat/completions", "{not json");
        assertThat(r.statusCode()).isEqualTo(400);

        r = post(base, "/chat/completions", "{\"model\":\"tiny\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_tokens\":100000}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(TinyServer.parse(r.body()).at("/error/param").asText()).isEqualTo("max_tokens");

        // a body over the limit (1 MiB in these tests) is refused, never stored; its 413 always arrives (several times: it used to race the close)
        String big = "{\"model\":\"tiny\",\"messages\":[{\"role\":\"user\",\"content\":\"" + "a".repeat(1 << 20) + "\"}]}";
        for (int i = 0; i < 20; i++) assertThat(post(base, "/chat/completions", big).statusCode()).isEqualTo(413);

        assertThat(get(base + "/nowhere").statusCode()).isEqualTo(404);
    }

    @Test
    void busyServerAnswers429() throws Exception {
        // a second API on the same model with one decode slot and no queue; its one place is taken here
        Engine busy = new Engine(TinyServer.engine().model(), TinyServer.engine().vocabulary(),
                new Engine.Config(TinyServer.MODEL, 1, 0, 64, Duration.ofMinutes(1), "compact", 0));
        try (HttpApi api = new HttpApi(busy, "127.0.0.1", 0, 1 << 20).start(); Engine.Admission taken = busy.admit()) {
            HttpResponse<String> r = post("http://127.0.0.1:" + api.port() + "/v1", "/chat/completions",
                    "{\"model\":\"tiny\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
            assertThat(r.statusCode()).isEqualTo(429);
            assertThat(TinyServer.parse(r.body()).at("/error/code").asText()).isEqualTo("rate_limit_exceeded");
            assertThat(get("http://127.0.0.1:" + api.port() + "/metrics").body()).contains("domino_requests_rejected_total 1");
        }
    }

    @Test
    void textCompletionsWithStopAndSeveralChoices() throws Exception {
        HttpResponse<String> r = post(TinyServer.baseUrl(), "/completions",
                "{\"model\":\"tiny\",\"prompt\":\"Count:\",\"regex\":\"[0-9]{1,3}(,[0-9]{1,3}){0,30}\",\"n\":2,\"seed\":5,\"stop\":[\",\"],\"max_tokens\":100,\"logprobs\":0}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode body = TinyServer.parse(r.body());
        assertThat(body.get("choices")).hasSize(2);
        for (JsonNode c : body.get("choices")) {
            assertThat(c.get("text").asText()).matches("[0-9]{1,3}");
            assertThat(c.get("finish_reason").asText()).isEqualTo("stop");
            assertThat(c.at("/logprobs/token_logprobs")).isNotEmpty();
        }
        assertThat(body.at("/usage/completion_tokens").asInt()).isPositive();
    }

    @Test
    void healthAndMetrics() throws Exception {
        assertThat(get(root() + "/health").body()).contains("\"ok\"");
        // counted before the response's last byte: a client that has its answer finds it in /metrics (it used to race)
        String ok = "domino_http_responses_total{endpoint=\"/v1/chat/completions\",status=\"200\"}";
        for (int i = 0; i < 5; i++) {
            double before = metricOrZero(ok);
            HttpResponse<String> r = post(TinyServer.baseUrl(), "/chat/completions",
                    "{\"model\":\"tiny\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":5,\"seed\":" + i + "}");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            assertThat(metricOrZero(ok)).isGreaterThanOrEqualTo(before + 1);
        }
        String m = get(root() + "/metrics").body();
        assertThat(m).contains("domino_mask_seconds_total", "domino_constraint_cache_hits_total", "domino_requests_waiting",
                "domino_http_responses_total{endpoint=\"/v1/chat/completions\",status=\"200\"}");
    }

    @Test
    void aStreamIsCancelledWhenTheClientGoesAway() throws Exception {
        double before = metric("domino_outputs_cancelled_total");
        // at least 1,500 characters before the output may end: long enough to be cut mid-way
        String body = "{\"model\":\"tiny\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"stream\":true,\"max_tokens\":1900,\"seed\":1,"
                + "\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{\"name\":\"long\",\"schema\":{\"type\":\"string\",\"minLength\":1500}}}}";
        URI uri = URI.create(TinyServer.baseUrl());
        try (Socket s = new Socket(uri.getHost(), uri.getPort())) {
            OutputStream out = s.getOutputStream();
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: "
                    + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[4096];
            StringBuilder seen = new StringBuilder();
            while (seen.length() < 2000) { // a few chunks, then hang up
                int n = in.read(buf);
                assertThat(n).as("the stream ended early: " + seen).isPositive();
                seen.append(new String(buf, 0, n, StandardCharsets.UTF_8));
            }
            assertThat(seen.toString()).startsWith("HTTP/1.1 200").contains("data: {");
        }
        long deadline = System.nanoTime() + TinyServer.REQUEST_TIMEOUT.toNanos(); // a hang guard
        while (metric("domino_outputs_cancelled_total") <= before && System.nanoTime() < deadline) Thread.sleep(100);
        assertThat(metric("domino_outputs_cancelled_total")).isGreaterThan(before);
    }

    static double metricOrZero(String name) throws Exception {
        return get(root() + "/metrics").body().lines().anyMatch(l -> l.startsWith(name + " ")) ? metric(name) : 0;
    }

    static double metric(String name) throws Exception {
        for (String line : get(root() + "/metrics").body().split("\n")) {
            if (line.startsWith(name + " ")) return Double.parseDouble(line.substring(name.length() + 1));
        }
        throw new AssertionError("no metric " + name);
    }
}
