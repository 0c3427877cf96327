package io.github.cudastackbudget.core.check;

import io.github.cudastackbudget.core.engine.EngineException;
import io.github.cudastackbudget.core.engine.KernelEngine;

/** Creates the engine once device code has been found (so a project without CUDA needs no toolkit). */
@FunctionalInterface
public interface EngineProvider {
    KernelEngine get() throws EngineException;
}
