package io.github.cudastackbudget.core.binary;

/**
 * What kind of file (or archive member) holds, or might hold, CUDA device code, judged by its leading magic bytes and,
 * for ELF, by {@code e_machine}. The one kind enum of the readers: {@link DeviceCodeDetector} and
 * {@link DeviceCodeReader} both say it.
 */
public enum BinaryKind {
    /** An ELF file for the host (shared library, executable, relocatable object). */
    HOST_ELF,
    /** A CUDA ELF file ({@code e_machine == EM_CUDA}): device code for one GPU architecture. */
    CUBIN,
    /** A standalone CUDA fat binary (magic {@code 0xBA55ED50}). */
    FATBIN,
    /** A Unix {@code ar} archive (static library), thin archives included. */
    AR_ARCHIVE,
    /** A Windows PE/COFF image ({@code .dll}, {@code .exe}; magic {@code MZ}): device code in {@code .nv_fatb}. */
    PE_IMAGE,
    /** None of the above. */
    UNKNOWN
}
