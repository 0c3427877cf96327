package io.github.cudastackbudget.core.scan;

/** What kind of file {@link DeviceCodeDetector} found, judged by its leading magic bytes. */
public enum BinaryKind {
    /** An ELF file for the host (shared library, executable, relocatable object). */
    HOST_ELF,
    /** A CUDA ELF file ({@code e_machine == EM_CUDA}): device code for one GPU architecture. */
    CUBIN,
    /** A standalone CUDA fat binary (magic {@code 0xBA55ED50}). */
    FATBIN,
    /** A Unix {@code ar} archive (static library). */
    AR_ARCHIVE,
    /** None of the above. */
    UNKNOWN
}
