package io.github.cudastackbudget.core.device;

import io.github.cudastackbudget.core.arch.ComputeCapability;
import io.github.cudastackbudget.core.text.InvalidValueException;
import io.github.cudastackbudget.core.text.ByteSize;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Turns device definitions and preset lists into checked device targets, with one clear message per mistake. */
public final class DeviceResolver {

    private final GpuCatalog catalog;

    public DeviceResolver(GpuCatalog catalog) {
        this.catalog = catalog;
    }

    /**
     * @param definitions {@code <devices>} entries
     * @param presetList  comma-separated catalog ids ({@code devicePresets}), may be null
     * @throws InvalidValueException naming the device and the field
     */
    public List<DeviceTarget> resolve(List<DeviceDefinition> definitions, String presetList) {
        List<DeviceTarget> targets = new ArrayList<>();
        int position = 0;
        for (DeviceDefinition definition : definitions) {
            position++;
            targets.add(resolve(definition, position));
        }
        if (presetList != null && !presetList.isBlank()) {
            for (String id : presetList.split(",")) {
                if (!id.isBlank()) {
                    targets.add(new DeviceTarget(catalog.require(id.strip()).toDevice(), null));
                }
            }
        }
        Set<String> names = new HashSet<>();
        for (DeviceTarget target : targets) {
            if (!names.add(target.device().name())) {
                throw new InvalidValueException("device '" + target.device().name() + "' is configured twice: give "
                        + "each device a distinct <name>");
            }
        }
        return targets;
    }

    private DeviceTarget resolve(DeviceDefinition definition, int position) {
        String label = definition.name() != null ? "device '" + definition.name() + "'"
                : definition.preset() != null ? "device '" + definition.preset() + "'" : "device #" + position;
        SizeLimit budget = blank(definition.maxReservation()) ? null
                : SizeLimit.parse(definition.maxReservation(), "maxReservation of " + label);
        // issue 12, baselines: the device's own allowed growth over the baseline
        GrowthLimit growth = blank(definition.maxGrowth()) ? null
                : GrowthLimit.parse(definition.maxGrowth(), "maxGrowth of " + label);
        Long memory = blank(definition.memory()) ? null : ByteSize.parse(definition.memory(), "memory of " + label);
        Long maxStack = blank(definition.maxStackPerThread()) ? null
                : ByteSize.parse(definition.maxStackPerThread(), "maxStackPerThread of " + label);
        DeviceSpec base = null;
        if (!blank(definition.preset())) {
            base = catalog.require(definition.preset().strip()).toDevice();
        } else if (blank(definition.name())) {
            throw new InvalidValueException(label + " has neither <preset> nor <name>: give a catalog <preset> (e.g. "
                    + "h200-141gb) or <name>, <computeCapability> and <maxResidentThreads>");
        }
        String name = blank(definition.name()) ? base.name() : definition.name().strip();
        ComputeCapability capability = blank(definition.computeCapability())
                ? (base == null ? missing(label, "computeCapability") : base.capability())
                : capability(definition.computeCapability(), label);
        Integer sms = blank(definition.multiProcessorCount()) ? null
                : positiveInt(definition.multiProcessorCount(), label, "multiProcessorCount");
        Integer perSm = blank(definition.maxThreadsPerMultiProcessor()) ? null
                : positiveInt(definition.maxThreadsPerMultiProcessor(), label, "maxThreadsPerMultiProcessor");
        if (base != null && blank(definition.maxResidentThreads())) {
            // a preset with one of the two overridden (a MIG slice: fewer SMs, same threads per SM)
            sms = sms == null && perSm != null ? base.multiProcessorCount() : sms;
            perSm = perSm == null && sms != null ? base.maxThreadsPerMultiProcessor() : perSm;
        }
        long threads;
        if (!blank(definition.maxResidentThreads())) {
            threads = positiveInt(definition.maxResidentThreads(), label, "maxResidentThreads");
            if (sms != null && perSm != null && (long) sms * perSm != threads) {
                throw new InvalidValueException(label + ": maxResidentThreads " + threads + " is not multiProcessorCount "
                        + sms + " x maxThreadsPerMultiProcessor " + perSm + "; give one or the other");
            }
        } else if (sms != null && perSm != null) {
            threads = (long) sms * perSm;
        } else if (sms != null || perSm != null) {
            throw new InvalidValueException(label + ": give both <multiProcessorCount> and "
                    + "<maxThreadsPerMultiProcessor>, or <maxResidentThreads>");
        } else if (base != null) {
            threads = base.maxResidentThreads();
            sms = base.multiProcessorCount();
            perSm = base.maxThreadsPerMultiProcessor();
        } else {
            return missing(label, "maxResidentThreads (or multiProcessorCount and maxThreadsPerMultiProcessor)");
        }
        Long deviceMemory = memory != null ? memory : base == null ? null : base.memoryBytes();
        boolean overridden = base != null && (!blank(definition.computeCapability())
                || !blank(definition.maxResidentThreads()) || !blank(definition.multiProcessorCount())
                || !blank(definition.maxThreadsPerMultiProcessor()) || memory != null);
        String source = base == null ? "configured figures"
                : overridden ? base.source() + "; overridden by the configuration" : base.source();
        return new DeviceTarget(new DeviceSpec(name, base == null ? null : base.presetId(), capability, threads, sms,
                perSm, deviceMemory, source), budget, maxStack, growth);
    }

    private static ComputeCapability capability(String text, String label) {
        try {
            return ComputeCapability.parse(text);
        } catch (InvalidValueException e) {
            throw new InvalidValueException(label + ": <computeCapability> " + e.getMessage());
        }
    }

    private static <T> T missing(String label, String field) {
        throw new InvalidValueException(label + " lacks <" + field + ">: add it, or use a catalog <preset>");
    }

    private static int positiveInt(String text, String label, String field) {
        try {
            int value = Integer.parseInt(text.strip().replace("_", "").replace(",", ""));
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // fall through to the message
        }
        throw new InvalidValueException(label + ": <" + field + "> '" + text + "' must be a positive whole number");
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
