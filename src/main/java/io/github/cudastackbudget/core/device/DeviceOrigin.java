package io.github.cudastackbudget.core.device;

import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.Option;
import java.util.Objects;

/**
 * Where the checked devices came from: the user's configuration, this machine's GPUs, or the default set; with the
 * phrase the reports show ({@code deviceOrigin}).
 *
 * @param kind   which of the three
 * @param phrase how the reports say it, in the front end's words
 */
public record DeviceOrigin(Kind kind, String phrase) {

    /** The three origins. */
    public enum Kind {
        /** the user listed the devices (devices or devicePresets). */
        CONFIGURED,
        /** none configured: the GPUs nvidia-smi found on this machine. */
        DETECTED,
        /** none configured and none detected: {@link DefaultDevices#DEFAULT_PRESETS}. */
        DEFAULT_SET
    }

    public DeviceOrigin {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(phrase, "phrase");
    }

    /** Devices the user configured. */
    public static DeviceOrigin configured() {
        return new DeviceOrigin(Kind.CONFIGURED, "configured");
    }

    /** This machine's GPUs, matched to the catalog. */
    public static DeviceOrigin detected() {
        return new DeviceOrigin(Kind.DETECTED, "detected with nvidia-smi; no devices configured");
    }

    /** The default set, with how to choose instead. */
    public static DeviceOrigin defaultSet(Frontend frontend) {
        return new DeviceOrigin(Kind.DEFAULT_SET, "default set; configure " + frontend.element(Option.DEVICES) + " or "
                + frontend.name(Option.DEVICE_PRESETS) + " to choose");
    }

    /** True unless the user configured the devices (detected GPUs and the default set are both defaults). */
    public boolean isDefault() {
        return kind != Kind.CONFIGURED;
    }

    /** The word messages use for these devices: {@code configured} or {@code default}. */
    public String adjective() {
        return isDefault() ? "default" : "configured";
    }
}
