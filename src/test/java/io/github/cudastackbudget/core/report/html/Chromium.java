package io.github.cudastackbudget.core.report.html;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Headless Chromium (Debian's {@code chromium} package) driven through the Chrome DevTools protocol over
 * {@link java.net.http.WebSocket}: one browser, one page, every protocol event recorded. No dependency beyond the JDK
 * and Jackson.
 */
final class Chromium implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");
    private static final Duration TIMEOUT = Duration.ofSeconds(90);

    private final Process process;
    private final Path profile;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<JsonNode> events = new CopyOnWriteArrayList<>();
    private final List<String> stderr = new CopyOnWriteArrayList<>();

    private Chromium(Process process, Path profile, WebSocket socket) {
        this.process = process;
        this.profile = profile;
        this.socket = socket;
    }

    /** The executable: $CHROMIUM, else chromium / chromium-browser / google-chrome on the PATH. */
    static Path executable() {
        String configured = System.getenv("CHROMIUM");
        if (configured != null && !configured.isBlank()) {
            if (!Files.isExecutable(Path.of(configured))) {
                throw new IllegalStateException("CHROMIUM=" + configured + " is not an executable file");
            }
            return Path.of(configured);
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
                Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        throw new IllegalStateException("the browser tests need headless Chromium and found none on the PATH: install "
                + "Debian's chromium package (apt-get install -y chromium; .ci/run does) or set CHROMIUM=/path/to/it; "
                + "to run only the unit tests use -DskipBrowserTests");
    }

    /** Starts a fresh headless Chromium with an empty profile and attaches to its first page. */
    static Chromium launch() throws Exception {
        Path profile = Files.createTempDirectory("csb-chromium-profile");
        List<String> command = List.of(executable().toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--disable-default-apps", "--disable-extensions", "--mute-audio",
                "--user-data-dir=" + profile, "--remote-debugging-port=0", "--remote-allow-origins=*",
                "--window-size=1280,900", "about:blank");
        Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        List<String> lines = new CopyOnWriteArrayList<>();
        CompletableFuture<String> endpoint = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    lines.add(line);
                    Matcher match = LISTENING.matcher(line);
                    if (match.find()) {
                        endpoint.complete(match.group(1));
                    }
                }
            } catch (IOException e) {
                endpoint.completeExceptionally(e);
            }
            endpoint.completeExceptionally(new IllegalStateException("chromium exited before it listened: " + lines));
        }, "chromium-stderr");
        reader.setDaemon(true);
        reader.start();
        String browserUrl;
        try {
            browserUrl = endpoint.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IllegalStateException("chromium did not start: " + lines, e);
        }
        URI browser = URI.create(browserUrl);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> list = http.send(HttpRequest.newBuilder(URI.create("http://" + browser.getHost() + ":"
                + browser.getPort() + "/json/list")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        String pageUrl = null;
        for (JsonNode target : JSON.readTree(list.body())) {
            if ("page".equals(target.path("type").asText())) {
                pageUrl = target.get("webSocketDebuggerUrl").asText();
                break;
            }
        }
        if (pageUrl == null) {
            process.destroyForcibly();
            throw new IllegalStateException("chromium has no page target: " + list.body());
        }
        Chromium[] self = new Chromium[1];
        WebSocket socket = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10))
                .buildAsync(URI.create(pageUrl), new WebSocket.Listener() {
                    private final StringBuilder message = new StringBuilder();

                    @Override
                    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                        message.append(data);
                        if (last) {
                            String text = message.toString();
                            message.setLength(0);
                            while (self[0] == null) {
                                Thread.onSpinWait();
                            }
                            self[0].receive(text);
                        }
                        webSocket.request(1);
                        return null;
                    }
                }).get(30, TimeUnit.SECONDS);
        Chromium chromium = new Chromium(process, profile, socket);
        chromium.stderr.addAll(lines);
        self[0] = chromium;
        return chromium;
    }

    /** {@link #launch()}, then the page domains on, a 1280 x 900 window and no scrollbars (stable screenshots). */
    static Chromium launchForPages() throws Exception {
        Chromium chromium = launch();
        try {
            chromium.send("Page.enable");
            chromium.send("Network.enable");
            chromium.send("Runtime.enable");
            chromium.send("Log.enable");
            chromium.send("Emulation.setDeviceMetricsOverride", Map.of("width", 1280, "height", 900,
                    "deviceScaleFactor", 1, "mobile", false));
            chromium.send("Emulation.setScrollbarsHidden", Map.of("hidden", true));
            return chromium;
        } catch (Exception e) {
            chromium.close();
            throw e;
        }
    }

    /** The URLs the page requested since the last {@link #clearEvents()}. */
    List<String> requestedUrls() {
        return events("Network.requestWillBeSent").stream().map(event -> event.path("request").path("url").asText())
                .toList();
    }

    /** Uncaught exceptions, console errors/warnings and browser log errors (CSP violations, failed loads). */
    List<JsonNode> problems() {
        List<JsonNode> problems = new ArrayList<>(events("Runtime.exceptionThrown"));
        events("Runtime.consoleAPICalled").stream()
                .filter(event -> List.of("error", "warning", "assert").contains(event.path("type").asText()))
                .forEach(problems::add);
        events("Log.entryAdded").stream().filter(event -> "error".equals(event.path("entry").path("level").asText()))
                .forEach(problems::add);
        events("Network.loadingFailed").forEach(problems::add);
        return problems;
    }

    private void receive(String text) {
        try {
            JsonNode message = JSON.readTree(text);
            if (message.has("id")) {
                CompletableFuture<JsonNode> waiting = pending.remove(message.get("id").asInt());
                if (waiting != null) {
                    if (message.has("error")) {
                        waiting.completeExceptionally(new IllegalStateException("DevTools error: " + message.get("error")));
                    } else {
                        waiting.complete(message.get("result"));
                    }
                }
            } else {
                events.add(message);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Sends a protocol command and waits for its result. */
    JsonNode send(String method, Map<String, ?> params) throws Exception {
        int id = ids.incrementAndGet();
        ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
        message.set("params", JSON.valueToTree(params));
        CompletableFuture<JsonNode> result = new CompletableFuture<>();
        pending.put(id, result);
        socket.sendText(JSON.writeValueAsString(message), true).get(30, TimeUnit.SECONDS);
        return result.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }

    JsonNode send(String method) throws Exception {
        return send(method, Map.of());
    }

    /** Every event received so far with this method name, in arrival order. */
    List<JsonNode> events(String method) {
        return events.stream().filter(event -> method.equals(event.path("method").asText()))
                .map(event -> event.get("params")).toList();
    }

    void clearEvents() {
        events.clear();
    }

    /** Waits until an event with this method arrives (counting those already received after {@code from}). */
    JsonNode awaitEvent(String method, int from) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            List<JsonNode> seen = events(method);
            if (seen.size() > from) {
                return seen.get(from);
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("no " + method + " event within " + TIMEOUT.toSeconds() + " s");
    }

    /** Evaluates a JavaScript expression in the page and returns its value (JSON); a thrown exception fails. */
    JsonNode evaluate(String expression) throws Exception {
        JsonNode result = send("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true,
                "awaitPromise", true));
        if (result.has("exceptionDetails")) {
            throw new IllegalStateException("page script failed: " + result.get("exceptionDetails"));
        }
        return result.path("result").path("value");
    }

    /** Polls {@code expression} until {@code done} accepts its value. */
    JsonNode waitFor(String expression, Predicate<JsonNode> done) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        JsonNode value = null;
        while (System.nanoTime() < deadline) {
            value = evaluate(expression);
            if (done.test(value)) {
                return value;
            }
            Thread.sleep(25);
        }
        throw new IllegalStateException("page never reached the expected state; last value of " + expression + ": "
                + value);
    }

    /** Loads a URL and waits for its load event. */
    void navigate(String url) throws Exception {
        int loads = events("Page.loadEventFired").size();
        JsonNode result = send("Page.navigate", Map.of("url", url));
        if (result.has("errorText")) {
            throw new IllegalStateException("cannot load " + url + ": " + result.get("errorText").asText());
        }
        awaitEvent("Page.loadEventFired", loads);
    }

    /** A real mouse click in the middle of the first element matching {@code selector}, scrolled into view. */
    void click(String selector) throws Exception {
        JsonNode point = evaluate("(function(){var e=document.querySelector(" + JSON.writeValueAsString(selector)
                + ");if(!e)return null;e.scrollIntoView({block:'center'});var r=e.getBoundingClientRect();"
                + "return [r.left+r.width/2,r.top+r.height/2];})()");
        if (point == null || point.isNull() || point.isMissingNode()) {
            throw new IllegalStateException("nothing on the page matches " + selector);
        }
        double x = point.get(0).asDouble();
        double y = point.get(1).asDouble();
        send("Input.dispatchMouseEvent", Map.of("type", "mouseMoved", "x", x, "y", y));
        send("Input.dispatchMouseEvent", Map.of("type", "mousePressed", "x", x, "y", y, "button", "left",
                "clickCount", 1));
        send("Input.dispatchMouseEvent", Map.of("type", "mouseReleased", "x", x, "y", y, "button", "left",
                "clickCount", 1));
    }

    /** Clicks into a text field and types {@code text} as keyboard input. */
    void type(String selector, String text) throws Exception {
        click(selector);
        for (char c : text.toCharArray()) {
            send("Input.dispatchKeyEvent", Map.of("type", "keyDown", "text", String.valueOf(c)));
            send("Input.dispatchKeyEvent", Map.of("type", "keyUp"));
        }
    }

    /** A PNG of the whole page (beyond the window), or of the viewport when {@code fullPage} is false. */
    void screenshot(Path file, boolean fullPage) throws Exception {
        Map<String, Object> params = new java.util.HashMap<>(Map.of("format", "png"));
        if (fullPage) {
            JsonNode metrics = send("Page.getLayoutMetrics");
            JsonNode size = metrics.has("cssContentSize") ? metrics.get("cssContentSize") : metrics.get("contentSize");
            params.put("captureBeyondViewport", true);
            params.put("clip", Map.of("x", 0, "y", 0, "width", size.get("width").asDouble(),
                    "height", Math.min(size.get("height").asDouble(), 16_000), "scale", 1));
        }
        JsonNode shot = send("Page.captureScreenshot", params);
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, Base64.getDecoder().decode(shot.get("data").asText()));
    }

    /** A PNG of one element (scrolled into view first). */
    void screenshotOf(String selector, Path file) throws Exception {
        JsonNode box = evaluate("(function(){var e=document.querySelector(" + JSON.writeValueAsString(selector)
                + ");e.scrollIntoView({block:'start'});var r=e.getBoundingClientRect();"
                + "return [r.left+window.scrollX,r.top+window.scrollY,r.width,Math.min(r.height,4000)];})()");
        JsonNode shot = send("Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true,
                "clip", Map.of("x", box.get(0).asDouble(), "y", box.get(1).asDouble(), "width", box.get(2).asDouble(),
                        "height", box.get(3).asDouble(), "scale", 1)));
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, Base64.getDecoder().decode(shot.get("data").asText()));
    }

    @Override
    public void close() throws Exception {
        try {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(5, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // the browser goes away below anyway
        }
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        try (Stream<Path> files = Files.walk(profile)) {
            List<Path> all = new ArrayList<>(files.sorted(Comparator.reverseOrder()).toList());
            for (Path path : all) {
                Files.deleteIfExists(path);
            }
        } catch (IOException ignored) {
            // a profile file still held open by a dying helper process: it lives in the temp directory
        }
    }
}
