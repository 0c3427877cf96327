package io.github.cudastackbudget.core.engine;

import io.github.cudastackbudget.core.binary.BinaryFormatException;
import io.github.cudastackbudget.core.binary.DeviceCodeProbe;
import io.github.cudastackbudget.core.model.LibraryScan;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code auto} engine: the native reader first, and NVIDIA's cuobjdump for any file whose layout the native
 * reader does not know.
 *
 * <p>Why native first: it needs no CUDA toolkit (many builds package libraries made elsewhere), it is faster, its
 * figures equal cuobjdump 13.0's line for line (src/site/markdown/engines.md, "The native engine"), and it sees the kernels of embedded PTX,
 * so the JIT and cannot-run lists are per kernel. Why the fallback: a future toolkit may write a fatbin or cubin
 * layout the reader has not seen; the reader then refuses the file (never guesses), and cuobjdump, which ships with
 * that toolkit, reads it. Each fallback is a warning in the log and the reports. Without cuobjdump the refusal stays
 * an error.
 */
public final class AutoEngine implements KernelEngine {

    /** Creates the fallback only when it is needed, so a toolkit is required only for unknown layouts. */
    @FunctionalInterface
    public interface FallbackProvider {
        KernelEngine get() throws EngineException;
    }

    private final NativeEngine primary;
    private final FallbackProvider fallbackProvider;
    private final List<String> warnings = new ArrayList<>();
    private KernelEngine fallback;
    private EngineException fallbackUnavailable;

    public AutoEngine(NativeEngine primary, FallbackProvider fallbackProvider) {
        this.primary = primary;
        this.fallbackProvider = fallbackProvider;
    }

    @Override
    public String id() {
        return "auto";
    }

    @Override
    public String description() {
        KernelEngine used = usedFallback();
        return primary.description() + (used == null ? "" : "; " + used.description() + " for layouts it does not know");
    }

    private synchronized KernelEngine usedFallback() {
        return warnings.isEmpty() ? null : fallback;
    }

    @Override
    public LibraryScan read(DeviceCodeProbe probe) throws EngineException {
        try {
            return primary.read(probe);
        } catch (EngineException e) {
            if (!(e.getCause() instanceof BinaryFormatException)) {
                throw e;
            }
            KernelEngine cuobjdump = fallback(e);
            LibraryScan scan = cuobjdump.read(probe);
            synchronized (this) {
                warnings.add(probe.file().getFileName() + " was read with cuobjdump: the native reader does not know "
                        + "its layout (" + e.getCause().getMessage() + ")");
            }
            return scan;
        }
    }

    private synchronized KernelEngine fallback(EngineException nativeFailure) throws EngineException {
        if (fallback == null && fallbackUnavailable == null) {
            try {
                fallback = fallbackProvider.get();
            } catch (EngineException e) {
                fallbackUnavailable = e;
            }
        }
        if (fallback == null) {
            throw new EngineException(nativeFailure.getMessage() + "; cuobjdump, which could read it, is not "
                    + "available either (" + fallbackUnavailable.getMessage() + ")", nativeFailure.getCause());
        }
        return fallback;
    }

    @Override
    public synchronized List<String> warnings() {
        return List.copyOf(warnings);
    }
}
