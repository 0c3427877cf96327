package io.github.cudastackbudget.core.check;

import io.github.cudastackbudget.core.text.InvalidValueException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * How the frames of functions a device would JIT-compile from PTX are computed.
 *
 * @param mode              {@link Mode#OFF}: not computed (the device lists them as "frame unknown at build time"
 *                          and a hint names the option); {@link Mode#PTXAS}: compiled with ptxas for the device's
 *                          {@code sm_XX}
 * @param ptxas             the ptxas executable, or null to look for it (PATH, {@code $CUDA_HOME/bin}, ...)
 * @param driverCudaVersion the CUDA version of the target driver ({@code 12.8}), or null: a ptxas of another release
 *                          gets a warning (the driver's JIT compiler is the driver's release)
 * @param timeout           the time limit of ptxas on one module
 * @param environment       the process environment (PATH, CUDA_HOME)
 * @param threads           modules compiled at once
 */
public record JitOptions(Mode mode, String ptxas, String driverCudaVersion, Duration timeout,
        Map<String, String> environment, int threads) {

    /** No JIT frames. */
    public static final JitOptions OFF = new JitOptions(Mode.OFF, null, null, Duration.ofSeconds(600), Map.of(), 1);

    /** The values of {@code jitFrames}. */
    public enum Mode {
        OFF, PTXAS;

        /** The option's spelling: {@code off}, {@code ptxas}. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * Parses {@code off} or {@code ptxas} (any case; null or blank: {@code off}).
         *
         * @param option how the user names the option, for the message
         */
        public static Mode parse(String value, String option) {
            if (value == null || value.isBlank()) {
                return OFF;
            }
            for (Mode mode : values()) {
                if (mode.id().equals(value.strip().toLowerCase(Locale.ROOT))) {
                    return mode;
                }
            }
            throw new InvalidValueException(option + " '" + value + "' is not off or ptxas");
        }
    }

    public JitOptions {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(timeout, "timeout");
        environment = environment == null ? Map.of() : Map.copyOf(environment);
        threads = Math.max(1, threads);
        ptxas = ptxas == null || ptxas.isBlank() ? null : ptxas.strip();
        driverCudaVersion = driverCudaVersion == null || driverCudaVersion.isBlank() ? null : driverCudaVersion.strip();
    }
}
