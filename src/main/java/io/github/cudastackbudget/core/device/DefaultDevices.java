package io.github.cudastackbudget.core.device;

import io.github.cudastackbudget.core.text.Frontend;
import io.github.cudastackbudget.core.text.Option;
import java.util.ArrayList;
import java.util.List;

/**
 * What to check when no device is configured: the GPUs of this machine when {@code nvidia-smi} finds some that the
 * catalog knows, else a documented default set spanning the architectures people deploy on: T4 (7.5), A100 (8.0),
 * L4 (8.9), H100 SXM5 and H200 (9.0), B200 (10.0) and RTX 5090 (12.0). No budget is attached, so this never fails a
 * build for lack of one.
 */
public final class DefaultDevices {

    /** The default set's catalog ids. */
    public static final List<String> DEFAULT_PRESETS = List.of("t4", "a100-sxm4-80gb", "l4", "h100-sxm5-80gb",
            "h200-141gb", "b200", "rtx-5090");

    private DefaultDevices() {
    }

    /**
     * The devices and a phrase saying where they came from.
     *
     * @param local    GPUs detected on this machine (may be empty)
     * @param warnings receives one line per detected GPU the catalog does not know
     * @param frontend spells the options the messages name
     */
    public static Choice choose(GpuCatalog catalog, List<LocalGpuDetector.LocalGpu> local, List<String> warnings,
            Frontend frontend) {
        List<DeviceTarget> detected = new ArrayList<>();
        for (LocalGpuDetector.LocalGpu gpu : local) {
            var entry = catalog.findByDeviceName(gpu.name());
            if (entry.isPresent()) {
                DeviceSpec spec = entry.get().toDevice();
                String name = "gpu" + gpu.index() + "-" + spec.name();
                DeviceSpec named = spec.named(name).withMemory(gpu.memoryBytes() != null ? gpu.memoryBytes()
                        : spec.memoryBytes());
                detected.add(new DeviceTarget(new DeviceSpec(named.name(), named.presetId(), named.capability(),
                        named.maxResidentThreads(), named.multiProcessorCount(), named.maxThreadsPerMultiProcessor(),
                        named.memoryBytes(), "nvidia-smi GPU " + gpu.index() + " '" + gpu.name() + "' matched to the "
                                + spec.source()), null));
            } else {
                warnings.add("local GPU " + gpu.index() + " '" + gpu.name() + "' (compute capability "
                        + gpu.computeCapability() + ") is not in the catalog: configure it in " + frontend.element(Option.DEVICES)
                        + " with its multiProcessorCount to check it");
            }
        }
        if (!detected.isEmpty()) {
            return new Choice(detected, DeviceOrigin.detected());
        }
        List<DeviceTarget> defaults = DEFAULT_PRESETS.stream()
                .map(id -> new DeviceTarget(catalog.require(id).toDevice(), null)).toList();
        return new Choice(defaults, DeviceOrigin.defaultSet(frontend));
    }

    /** The chosen devices and their origin. */
    public record Choice(List<DeviceTarget> devices, DeviceOrigin origin) {
        public Choice {
            devices = List.copyOf(devices);
        }
    }
}
