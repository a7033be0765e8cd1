package dev.domino.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The OpenAI-compatible HTTP API over an {@link Engine}, on the JDK's own HTTP server ({@code jdk.httpserver}: no
 * dependency; one platform thread per open request, admission and the 429 decided by the engine):
 * <ul>
 *   <li>{@code POST /v1/chat/completions}, {@code POST /v1/completions} (JSON, or server-sent events with
 *       {@code stream: true});</li>
 *   <li>{@code GET /v1/models}, {@code GET /v1/models/{id}};</li>
 *   <li>{@code GET /health} ({@code {"status": "ok"}}), {@code GET /metrics} (Prometheus text).</li>
 * </ul>
 * Errors are OpenAI's error JSON. A body over the size limit gets 413 and is never stored: the rest of it is read and
 * discarded (up to {@link #DISCARD_LIMIT_BYTES}) before the answer, because a server that closes with unread bytes
 * resets the connection and the client may lose the 413. A streamed response whose
 * client went away is cancelled at the next forward pass; a non-streamed one runs to the end or the request
 * timeout (the JDK server reports no disconnect before a write).
 */
public final class HttpApi implements AutoCloseable {
    private final Engine engine;
    private final int maxRequestBytes;
    private final HttpServer server;
    private final ExecutorService threads;
    private final long created = System.currentTimeMillis() / 1000;
    /** How much of an over-limit body is read and thrown away so that its 413 arrives; past it the connection is cut. */
    static final long DISCARD_LIMIT_BYTES = 64L << 20;
    /**
     * Seconds an idle keep-alive connection stays open: longer than clients keep theirs (the JDK's HttpClient 30 s,
     * Go 90 s). The JDK server's default, 30 s, equals the JDK client's: the server could close a connection just as
     * the client reuses it, and the client does not retry a POST ("header parser received no bytes"). A JVM-wide
     * property, read when the first JDK HTTP server starts; a value set on the command line is kept.
     */
    static final long IDLE_SECONDS = 120;

    static {
        if (System.getProperty("sun.net.httpserver.idleInterval") == null) {
            System.setProperty("sun.net.httpserver.idleInterval", Long.toString(IDLE_SECONDS));
        }
    }

    public HttpApi(Engine engine, String host, int port, int maxRequestBytes) throws IOException {
        this.engine = engine;
        this.maxRequestBytes = maxRequestBytes;
        this.server = HttpServer.create(new InetSocketAddress(host, port), 256);
        AtomicInteger n = new AtomicInteger();
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "domino-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(threads);
        server.createContext("/", this::handle);
    }

    public HttpApi start() {
        server.start();
        return this;
    }

    /** The bound port (useful with port 0). */
    public int port() { return server.getAddress().getPort(); }

    @Override public void close() {
        server.stop(0);
        threads.shutdownNow();
        try {
            threads.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void handle(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getPath();
        String method = ex.getRequestMethod();
        String endpoint = path.startsWith("/v1/models/") ? "/v1/models/{id}" : path;
        Reply reply = new Reply(ex, endpoint);
        int status;
        try {
            status = switch (endpoint) {
                case "/v1/chat/completions" -> post(reply, method, true);
                case "/v1/completions" -> post(reply, method, false);
                case "/v1/models" -> get(reply, method, () -> OpenAiJson.JSON.writeValueAsString(OpenAiJson.models(engine.config().modelName(), created)));
                case "/v1/models/{id}" -> {
                    String id = path.substring("/v1/models/".length());
                    if (!id.equals(engine.config().modelName())) {
                        throw new ApiException(404, "invalid_request_error", "model", "model_not_found", "the model '" + id + "' does not exist");
                    }
                    yield get(reply, method, () -> OpenAiJson.JSON.writeValueAsString(OpenAiJson.model(id, created)));
                }
                case "/health" -> get(reply, method, () -> "{\"status\":\"ok\"}");
                case "/metrics" -> {
                    if (!method.equals("GET")) throw new ApiException(405, "invalid_request_error", null, null, "use GET");
                    yield send(reply, 200, "text/plain; version=0.0.4", engine.prometheus());
                }
                default -> throw new ApiException(404, "invalid_request_error", null, "unknown_url", "unknown URL " + method + " " + path);
            };
        } catch (ApiException e) {
            status = sendError(reply, e);
        } catch (RuntimeException e) {
            System.err.println("domino serve: internal error on " + method + " " + path + ":");
            e.printStackTrace();
            status = sendError(reply, new ApiException(500, "server_error", null, null, "internal error: " + e));
        } finally {
            ex.close();
        }
        reply.count(status); // a response never sent (499); the others were counted as they were sent
    }

    /**
     * One exchange's response, counted by endpoint and status once, before its last byte goes out: a client that has
     * its response and then reads {@code /metrics} finds it counted. (Not in the exchange's attributes: the JDK server
     * keeps those in its context, shared by every exchange.)
     */
    private final class Reply {
        final HttpExchange ex;
        final String endpoint;
        private boolean counted;

        Reply(HttpExchange ex, String endpoint) {
            this.ex = ex;
            this.endpoint = endpoint;
        }

        void count(int status) {
            if (counted) return;
            counted = true;
            engine.metrics().response(endpoint, status);
        }
    }

    private interface Body {
        String get() throws IOException;
    }

    private int get(Reply reply, String method, Body body) throws IOException {
        if (!method.equals("GET")) throw new ApiException(405, "invalid_request_error", null, null, "use GET");
        return send(reply, 200, "application/json", body.get());
    }

    private int post(Reply reply, String method, boolean chat) throws IOException {
        HttpExchange ex = reply.ex;
        if (!method.equals("POST")) throw new ApiException(405, "invalid_request_error", null, null, "use POST");
        JsonNode body = readJson(ex);
        ChatRequest request = chat ? ChatRequest.chat(body) : ChatRequest.completion(body);
        try (Engine.Admission admission = engine.admit()) {
            Engine.Prepared prepared = engine.prepare(request);
            String model = engine.config().modelName();
            if (!request.stream()) {
                ChatResult r = engine.run(prepared, null, () -> false);
                return send(reply, 200, "application/json", OpenAiJson.JSON.writeValueAsString(
                        chat ? OpenAiJson.chatCompletion(r, model) : OpenAiJson.textCompletion(r, model)));
            }
            ex.getResponseHeaders().set("Content-Type", "text/event-stream");
            ex.getResponseHeaders().set("Cache-Control", "no-cache");
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            String id = (chat ? "chatcmpl-" : "cmpl-") + UUID.randomUUID().toString().replace("-", "");
            ChunkStream stream = new ChunkStream(out, request, id, model, System.currentTimeMillis() / 1000, chat);
            try {
                ChatResult r = engine.run(prepared, stream, stream::clientGone);
                for (ChatResult.Choice c : r.choices()) stream.finish(c);
                if (request.includeUsage()) stream.usage(r);
            } catch (ApiException e) {
                stream.error(e);
            } catch (Engine.Cancelled e) {
                return 499; // the client closed the connection (nginx's code; never sent)
            }
            reply.count(200);
            stream.done();
            return 200;
        }
    }

    private JsonNode readJson(HttpExchange ex) throws IOException {
        String length = ex.getRequestHeaders().getFirst("Content-Length");
        if (length != null) {
            long n;
            try {
                n = Long.parseLong(length.trim());
            } catch (NumberFormatException e) {
                throw ApiException.invalid(null, "bad Content-Length");
            }
            if (n > maxRequestBytes) throw tooLarge(ex.getRequestBody());
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (InputStream in = ex.getRequestBody()) {
            byte[] chunk = new byte[8192];
            for (int r; (r = in.read(chunk)) > 0; ) {
                if (buf.size() + r > maxRequestBytes) throw tooLarge(in);
                buf.write(chunk, 0, r);
            }
        }
        try {
            JsonNode n = OpenAiJson.JSON.readTree(buf.toByteArray());
            if (n == null) throw ApiException.invalid(null, "empty request body");
            return n;
        } catch (JsonProcessingException e) {
            com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
            throw ApiException.invalid(null, "the body is not valid JSON: " + dev.domino.compiler.JsonParserMessages.plain(e.getOriginalMessage())
                    + (at == null || at.getLineNr() < 1 ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
        }
    }

    private ApiException tooLarge(InputStream unread) {
        try {
            byte[] sink = new byte[16384];
            long discarded = 0;
            for (int r; discarded < DISCARD_LIMIT_BYTES && (r = unread.read(sink)) > 0; ) discarded += r;
        } catch (IOException e) {
            // the client went away: nothing to answer
        }
        return new ApiException(413, "invalid_request_error", null, "request_too_large",
                "the request body is larger than the server's limit of " + maxRequestBytes + " bytes");
    }

    private static int send(Reply reply, int status, String type, String body) throws IOException {
        HttpExchange ex = reply.ex;
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        reply.count(status);
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
        return status;
    }

    private static int sendError(Reply reply, ApiException e) {
        try {
            return send(reply, e.status(), "application/json", OpenAiJson.JSON.writeValueAsString(OpenAiJson.error(e)));
        } catch (IOException io) {
            return e.status(); // headers already sent (a stream), or the client went away
        }
    }
}
