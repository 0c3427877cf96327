#!/usr/bin/env python3
"""Writes the seed corpus of the parser fuzz targets (ParserFuzzTest) from this repo's real files.

Run from the repository root after a build (target/test-cuda and target/native-matrix exist):
    python3 src/test/fuzz/make-seeds.py
Deterministic: whole small files, fixed slices of larger ones (the ELF header, the section table, the .nv_fatbin
section, its PTX entries), each under 64 KB. Writes src/test/resources/io/github/cudastackbudget/fuzz/
ParserFuzzTestInputs/<target>/seed-<name>.
"""
import gzip, os, shutil, struct, sys

ROOT = os.getcwd()
OUT = os.path.join(ROOT, "src/test/resources/io/github/cudastackbudget/fuzz/ParserFuzzTestInputs")
LIMIT = 64 * 1024 - 1
TC = "target/test-cuda"
NM = "target/native-matrix"


def read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


def put(target, name, data):
    data = data[:LIMIT]
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed-" + name.replace("/", "_")), "wb") as f:
        f.write(data)


def sections(elf):
    """(name, offset, size) of an ELF64 little-endian file's sections."""
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    heads = [struct.unpack_from("<IIQQQQ", elf, shoff + i * shentsize) for i in range(shnum)]
    stroff, strsize = heads[shstrndx][4], heads[shstrndx][5]
    out = []
    for h in heads:
        n = elf[stroff + h[0]:elf.index(b"\0", stroff + h[0])].decode()
        out.append((n, h[4], h[5]))
    return out, shoff, shentsize * shnum


def fatbin_section(elf):
    for n, off, size in sections(elf)[0]:
        if n == ".nv_fatbin":
            return elf[off:off + size]
    return None


def ptx_entries(fatbin):
    """Uncompressed PTX payloads of a fatbin (kind 1, no compression flag)."""
    out, pos = [], 0
    while pos + 16 <= len(fatbin):
        magic, _, hsize, fsize = struct.unpack_from("<IHHQ", fatbin, pos)
        if magic != 0xBA55ED50:
            break
        e, end = pos + hsize, pos + hsize + fsize
        while e + 16 <= end:
            kind, _, ehsize, psize = struct.unpack_from("<HHIQ", fatbin, e)
            flags, = struct.unpack_from("<Q", fatbin, e + 0x18)
            body = fatbin[e + ehsize:e + ehsize + psize]
            if kind == 1 and not flags & 0x2000 and not flags & 0x8000:
                out.append(body.rstrip(b"\0"))
            e += ehsize + psize
        pos = end
    return out


def main():
    if os.path.isdir(OUT):
        for t in os.listdir(OUT):
            for f in os.listdir(os.path.join(OUT, t)):
                if f.startswith("seed-"):
                    os.remove(os.path.join(OUT, t, f))
    small_elf = [TC + "/frames.o", TC + "/frames_rdc.o", TC + "/frames_sm90.cubin", TC + "/libhostonly.so",
                 NM + "/cubin/matrix_sm_75.cubin", NM + "/cubin/matrix_sm_90a.cubin", NM + "/rdc/rdc_a.o"]
    big_elf = [TC + "/libframes.so", TC + "/libframes_zstd.so", TC + "/libframes_lz4.so", TC + "/libmixedptx.so"]
    for p in small_elf:
        put("elf", os.path.basename(p), read(p))
        put("nativeRead", os.path.basename(p), read(p))
    for p in [TC + "/frames_sm90.cubin", NM + "/cubin/matrix_sm_75.cubin", NM + "/cubin/matrix_sm_80.cubin",
              NM + "/cubin/matrix_sm_89.cubin", NM + "/cubin/matrix_sm_90a.cubin"]:
        put("cubin", os.path.basename(p), read(p))
    for p in big_elf:
        elf = read(p)
        name = os.path.basename(p)
        secs, shoff, shlen = sections(elf)
        # the ELF header, then the section table and the section names at the offsets the header gives, the rest zero
        # (a sparse copy is too big: keep the header and the table moved right behind it, e_shoff patched)
        head = bytearray(elf[:0x40])
        struct.pack_into("<Q", head, 0x28, 0x40)
        put("elf", name + ".header+sections", bytes(head) + elf[shoff:shoff + shlen])
        fat = fatbin_section(elf)
        if fat:
            put("fatbin", name + ".nv_fatbin", fat)
            put("nativeRead", name + ".nv_fatbin", fat)
            for i, ptx in enumerate(ptx_entries(fat)):
                put("ptxEntryNames", "%s.ptx%d" % (name, i), ptx)
    nocomp = fatbin_section(read(TC + "/libframes_nocomp.so"))
    for i, ptx in enumerate(ptx_entries(nocomp)):
        put("ptxEntryNames", "libframes_nocomp.so.ptx%d" % i, ptx)
    for p in [TC + "/frames.fatbin", NM + "/fatbin/matrix_size.fatbin"]:
        put("fatbin", os.path.basename(p), read(p))
        put("nativeRead", os.path.basename(p), read(p))
    for p in [TC + "/libframes.a", NM + "/rdc/librdc.a"]:
        put("ar", os.path.basename(p), read(p))
        put("nativeRead", os.path.basename(p), read(p))
    rec = "src/test/resources/recorded/cuobjdump"
    for f in sorted(os.listdir(rec)):
        if f.endswith(".txt"):
            put("cuobjdumpText", f, read(rec + "/" + f))
    for p in ["src/it/shared/recordings/libstackdemo.so.resource-usage.txt",
              "src/test/resources/recorded/launch/launch-probe.resource-usage.txt",
              "src/test/resources/recorded/launch-graphs/launch-probe-graphs.resource-usage.txt"]:
        put("cuobjdumpText", os.path.basename(p), read(p))
    for d in ["src/test/resources/recorded/launch", "src/test/resources/recorded/launch-graphs"]:
        for f in sorted(os.listdir(d)):
            if ".launch.log" in f:
                data = read(d + "/" + f)
                # the target reads a library log when the last byte ends in binary 11 (the fuzzer flips it)
                if f.endswith(".libraries"):
                    data = data + b"#" if data[-1] & 3 != 3 else data
                put("launchLog", f, data)
    for i, text in enumerate(["1.5 GiB", "536870912", "2%", "0.5%", "80 GiB", "64 MiB", "100%", "1024 KiB",
                              "12 GB", "0", "9223372036854775807", "1e3%"]):
        put("sizes", "%02d" % i, text.encode())
    for g in ["stack-demo", "launched-probe", "jar", "launched-torch"]:
        put("reportJson", g + ".json", gzip.decompress(read("src/test/resources/golden/%s/cuda-stack-budget.json.gz" % g)))
    for t in sorted(os.listdir(OUT)):
        files = os.listdir(os.path.join(OUT, t))
        print("%-14s %3d seeds %7d bytes" % (t, len(files), sum(os.path.getsize(os.path.join(OUT, t, f)) for f in files)))


main()
