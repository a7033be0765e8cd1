package dev.domino.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Serve a jlama model over an OpenAI-compatible HTTP API, every output constrained by its request "
                + "(response_format, tools, tool_choice).")
public final class ServeCommand implements Callable<Integer> {
    @Option(names = "--model", required = true, paramLabel = "DIR", description = "jlama model directory (config.json, *.safetensors, tokenizer.json)")
    Path model;
    @Option(names = "--artifacts", paramLabel = "DIR",
            description = "prebuilt constraints: *.domino files compiled with `domino compile --spec REQUEST.json --vocab DIR/tokenizer.json`")
    Path artifacts;
    @Option(names = "--host", defaultValue = "127.0.0.1", description = "address to bind (default ${DEFAULT-VALUE})") String host;
    @Option(names = "--port", defaultValue = "8080", description = "port (default ${DEFAULT-VALUE}; 0 = any free port)") int port;
    @Option(names = "--model-name", paramLabel = "ID", description = "the model id clients send (default: the model directory's name)")
    String modelName;
    @Option(names = "--workers", defaultValue = "4", description = "requests decoding at once (default ${DEFAULT-VALUE})") int workers;
    @Option(names = "--queue", defaultValue = "64", description = "requests waiting beyond the workers; more get 429 (default ${DEFAULT-VALUE})") int queue;
    @Option(names = "--max-tokens", defaultValue = "512", description = "token limit of a request that sets none (default ${DEFAULT-VALUE})")
    int maxTokens;
    @Option(names = "--max-request-bytes", defaultValue = "4194304", description = "largest request body (default ${DEFAULT-VALUE}); larger get 413")
    int maxRequestBytes;
    @Option(names = "--timeout", defaultValue = "300", paramLabel = "SECONDS", description = "longest a request may take (default ${DEFAULT-VALUE})")
    long timeoutSeconds;
    @Option(names = "--json-whitespace", defaultValue = "compact", paramLabel = "compact|flexible",
            description = "JSON whitespace of compiled schemas (default ${DEFAULT-VALUE})")
    String jsonWhitespace;
    @Option(names = "--background-threads", defaultValue = "1", paramLabel = "N",
            description = "threads that build per-request schemas' trees while masks run, nothing prebuilt at compile (default ${DEFAULT-VALUE}); "
                    + "0 = none: each compile prebuilds about 1 s of trees, masks build the rest")
    int backgroundThreads;

    @Override
    public Integer call() throws Exception {
        // every option is checked before the model loads
        if (port < 0 || port > 65535) throw new IllegalArgumentException("--port must be in [0, 65535], got " + port);
        if (maxRequestBytes < 1024) throw new IllegalArgumentException("--max-request-bytes must be >= 1024, got " + maxRequestBytes);
        if (timeoutSeconds < 1) throw new IllegalArgumentException("--timeout must be >= 1 second, got " + timeoutSeconds);
        String name = modelName != null ? modelName : model.toAbsolutePath().normalize().getFileName().toString();
        if (backgroundThreads < 0 || backgroundThreads > 256) throw new IllegalArgumentException("--background-threads must be in [0, 256], got " + backgroundThreads);
        var config = new Engine.Config(name, workers, queue, maxTokens, Duration.ofSeconds(timeoutSeconds), jsonWhitespace, backgroundThreads);
        Engine engine = Engine.open(model, artifacts, config);
        HttpApi api = new HttpApi(engine, host, port, maxRequestBytes).start();
        System.err.println("domino serve: model '" + name + "' on http://" + host + ":" + api.port() + "/v1 ("
                + workers + " workers, queue " + queue + "; schemas: " + engine.constraintSummary() + ")");
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            api.close();
            engine.close();
            stopped.countDown();
        }));
        stopped.await();
        return 0;
    }
}
