package io.github.cudastackbudget.core.baseline;

import io.github.cudastackbudget.core.device.GrowthLimit;
import io.github.cudastackbudget.core.report.model.DeviceReport;
import io.github.cudastackbudget.core.report.model.KernelRow;
import io.github.cudastackbudget.core.report.model.ReportModel;
import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.InvalidValueException;
import io.github.cudastackbudget.core.text.Option;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The baseline of a check (issue 12): {@link BaselineOptions} parsed ({@code maxGrowth}) and the previous report read
 * once with the reader every output uses ({@link ReportModel#read}, schema 1 and 2) into the figures the comparison
 * needs. A missing file is an error naming it and {@code ignoreMissingBaseline} (with it, one INFO line); an
 * unreadable or corrupt one is always an error naming the file.
 */
public final class BaselineLoader {

    /** The reader's advice, which suits the report goal's input, not a baseline. */
    private static final Pattern REWRITE = Pattern.compile(
            "; run the check goal (of this plugin version )?again to rewrite it$");

    private BaselineLoader() {
    }

    /**
     * The default growth limit, or null; checked without reading anything.
     *
     * @throws InvalidValueException one line naming {@code maxGrowth} and the value
     */
    public static GrowthLimit maxGrowth(BaselineOptions options, Frontend frontend) {
        String text = options.maxGrowth();
        return text == null || text.isBlank() ? null : GrowthLimit.parse(text, frontend.name(Option.MAX_GROWTH));
    }

    /**
     * The comparison to make, or null without a baseline (none configured, or a missing one that may be missing).
     *
     * @param info receives the one line a missing baseline gives with {@code ignoreMissingBaseline}
     * @throws InvalidValueException one line: a bad {@code maxGrowth}, a missing baseline (naming the file and
     *                               {@code ignoreMissingBaseline}), a file that is no report (naming it)
     */
    public static BaselineRequest load(BaselineOptions options, Frontend frontend, Consumer<String> info) {
        GrowthLimit maxGrowth = maxGrowth(options, frontend);
        if (options.baseline() == null) {
            if (maxGrowth != null && options.label() == null) {
                // a front end that found no baseline artifact names it (label) and has said so itself
                info.accept(frontend.name(Option.MAX_GROWTH) + " " + maxGrowth.text() + " is set, but no "
                        + frontend.name(Option.BASELINE) + ": nothing is compared");
            }
            return null;
        }
        Path file = options.baseline();
        String label = options.describe();
        String missing = frontend.name(Option.BASELINE) + " " + label + " does not exist: name the "
                + "cuda-stack-budget.json of an earlier check, or set "
                + frontend.howToSet(Option.IGNORE_MISSING_BASELINE, "true") + " where there is none yet (a first release)";
        if (!Files.exists(file)) {
            if (options.ignoreMissingBaseline()) {
                info.accept("Baseline " + label + " does not exist: nothing to compare with (a first release?); "
                        + frontend.name(Option.IGNORE_MISSING_BASELINE) + " is set, so the check goes on without one");
                return null;
            }
            throw new InvalidValueException(missing);
        }
        ReportModel model;
        try (InputStream in = Files.newInputStream(file)) {
            model = ReportModel.read(in, label);
        } catch (NoSuchFileException e) {
            throw new InvalidValueException(missing);
        } catch (IOException e) {
            String message = REWRITE.matcher(String.valueOf(e.getMessage())).replaceFirst("");
            if (!message.startsWith(label)) {
                message = label + ": " + message;
            }
            throw new InvalidValueException(frontend.name(Option.BASELINE) + " " + message + "; name the "
                    + "cuda-stack-budget.json an earlier check wrote");
        }
        return new BaselineRequest(of(model, label), maxGrowth);
    }

    /** The figures of a report that a comparison needs. */
    static Baseline of(ReportModel model, String source) {
        List<Baseline.Device> devices = new ArrayList<>();
        for (DeviceReport device : model.devices()) {
            devices.add(new Baseline.Device(device.name(), device.reservationBytes(), device.skipped(),
                    image(device.worstKernel())));
        }
        List<Baseline.Image> images = new ArrayList<>(model.kernels().size());
        model.kernels().forEach(row -> images.add(image(row)));
        // frames a device JIT-compiles (ptxas) are no listed image; a device's counted kernels hold them
        model.devices().forEach(device -> device.selectedKernels().stream().filter(row -> !row.staticFrame())
                .forEach(row -> images.add(image(row))));
        return new Baseline(source, devices, images);
    }

    private static Baseline.Image image(KernelRow row) {
        return row == null ? null
                : new Baseline.Image(row.library(), row.name(), row.arch(), row.stack(), row.stackUnknown());
    }
}
