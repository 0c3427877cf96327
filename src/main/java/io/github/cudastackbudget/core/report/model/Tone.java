package io.github.cudastackbudget.core.report.model;

/** How the outputs colour a device: within budget, near it, over it, or skipped. */
public enum Tone {
    PASS, NEAR, FAIL, SKIPPED;

    /** A device at or above this percentage of its budget is "near budget". */
    public static final int NEAR_PERCENT = 80;

    /** The tone of a device. */
    public static Tone of(DeviceReport device) {
        if (device.skipped()) {
            return SKIPPED;
        }
        if (device.status() == Verdict.FAIL) {
            return FAIL;
        }
        return device.nearOrOverBudget(NEAR_PERCENT) ? NEAR : PASS;
    }

    /** The page's class name: {@code pass}, {@code near}, {@code fail}, {@code skipped}. */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
