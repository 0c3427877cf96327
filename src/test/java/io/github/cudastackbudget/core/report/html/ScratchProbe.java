package io.github.cudastackbudget.core.report.html;

import java.nio.file.Path;
import java.util.Map;

public final class ScratchProbe {
    public static void main(String[] args) throws Exception {
        try (Chromium c = Chromium.launch()) {
            c.send("Page.enable");
            c.send("Emulation.setDeviceMetricsOverride", Map.of("width", 1280, "height", 900, "deviceScaleFactor", 1, "mobile", false));
            c.navigate(Path.of(args[0]).toAbsolutePath().toUri().toString());
            for (int i = 1; i < args.length; i++) {
                System.out.println(c.evaluate(args[i]));
            }
        }
    }
}
