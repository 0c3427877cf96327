package io.github.cudastackbudget.core.engine;

import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.model.LibraryScan;
import java.util.List;

/** Reads the per-function resource usage of every SASS image in one file that holds device code. */
public interface KernelEngine {

    /** The engine's id as the {@code engine} parameter spells it. */
    String id();

    /** A one-line description for the log ("cuobjdump 13.0.88 at /usr/local/cuda/bin/cuobjdump"). */
    String description();

    /**
     * Reads one file.
     *
     * @param probe what the device-code detector found in the file (kind, cubin arch)
     * @throws EngineException with one line naming the file when it cannot be read
     */
    LibraryScan read(DeviceCodeProbe probe) throws EngineException;

    /** What the engine wants the user to know after reading (e.g. files it read another way); empty by default. */
    default List<String> warnings() {
        return List.of();
    }
}
