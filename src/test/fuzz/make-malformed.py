#!/usr/bin/env python3
"""Writes the binary half of the malformed-input corpus (issue 10) from this repo's real nvcc-built binaries.

Run from the repository root after a build (target/test-cuda exists):
    python3 src/test/fuzz/make-malformed.py
Each case is a real file (libhostonly.so, frames.o, frames_sm90.cubin, libframes.a, frames.fatbin, the .nv_fatbin
entries of libframes_zstd.so and libframes_lz4.so, a PE32+ image around a real fatbin) cut or with one field patched,
under 64 KB; writes src/test/resources/malformed/{elf,cubin,ar,fatbin,compressed,pe}/<case>. The expected one-line
messages live in each area's cases.tsv (hand-checked; the offsets follow from the files written here). Deterministic.
"""
import os, struct, sys

ROOT = os.getcwd()
OUT = os.path.join(ROOT, "src/test/resources/malformed")
TC = os.path.join(ROOT, "target/test-cuda")
LIMIT = 64 * 1024
MAGIC = 0xBA55ED50


def read(name):
    with open(os.path.join(TC, name), "rb") as f:
        return bytearray(f.read())


def put(area, name, data):
    assert len(data) < LIMIT, (area, name, len(data))
    d = os.path.join(OUT, area)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(bytes(data))


def patch(data, offset, fmt, value):
    out = bytearray(data)
    struct.pack_into(fmt, out, offset, value)
    return out


def sections(elf):
    """[(index, name, header offset, type, offset, size, link, info)] of an ELF64 little-endian file."""
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    heads = [struct.unpack_from("<IIQQQQII", elf, shoff + i * shentsize) for i in range(shnum)]
    stroff = heads[shstrndx][4]
    out = []
    for i, h in enumerate(heads):
        name = elf[stroff + h[0]:elf.index(b"\0", stroff + h[0])].decode()
        out.append((i, name, shoff + i * shentsize, h[1], h[4], h[5], h[6], h[7]))
    return out


def section(elf, name):
    return next(s for s in sections(elf) if s[1] == name)


def entries(fatbin):
    """[(entry offset, header size, payload size)] of every entry of every container."""
    out, pos = [], 0
    while pos + 16 <= len(fatbin):
        if struct.unpack_from("<Q", fatbin, pos)[0] == 0:
            pos += 8
            continue
        magic, _, hsize, esize = struct.unpack_from("<IHHQ", fatbin, pos)
        assert magic == MAGIC, hex(pos)
        e, end = pos + hsize, pos + hsize + esize
        while e < end:
            if end - e >= 8 and struct.unpack_from("<Q", fatbin, e)[0] == 0:
                e += 8
                continue
            ehs, psize = struct.unpack_from("<IQ", fatbin, e + 4)
            out.append((e, ehs, psize))
            e += ehs + psize
        pos = end
    return out


def container(*entry_bytes):
    body = b"".join(entry_bytes)
    return bytearray(struct.pack("<IHHQ", MAGIC, 1, 0x10, len(body)) + body)


def one_entry(fatbin, index):
    """A one-container fatbin holding entry `index` of `fatbin` (its header and payload unchanged)."""
    e, ehs, psize = entries(fatbin)[index]
    return container(fatbin[e:e + ehs + psize])


def largest_cubin(fatbin):
    best = None
    for i, (e, ehs, psize) in enumerate(entries(fatbin)):
        kind, = struct.unpack_from("<H", fatbin, e)
        if kind == 2 and (best is None or psize > entries(fatbin)[best][2]):
            best = i
    return best


def nv_fatbin(name):
    elf = read(name)
    s = section(elf, ".nv_fatbin")
    return elf[s[4]:s[4] + s[5]]


def zstd_rle_bomb(total):
    """A Zstandard frame of RLE blocks: `total` zero bytes from 4 bytes per 128 KiB (no content size declared)."""
    out = bytearray(struct.pack("<I", 0xFD2FB528)) + bytes([0x00, 0x38])  # no FCS, window 128 KiB
    block = 128 << 10
    left = total
    while left > 0:
        size = min(block, left)
        left -= size
        header = (1 if left == 0 else 0) | (1 << 1) | (size << 3)  # Last_Block, RLE, Block_Size
        out += struct.pack("<I", header)[:3] + b"\0"
    return out


def pe(fatbin, extra_sections=()):
    """A PE32+ image (x86-64) with .text and .nv_fatb holding `fatbin`: the layout of PeBuilder."""
    pe_offset, file_align = 0x80, 0x200
    secs = [(b".text", b"\xc3" * 16)] + list(extra_sections) + [(b".nv_fatb", bytes(fatbin))]
    optional_size = 240
    table = pe_offset + 24 + optional_size
    raw = (table + 40 * len(secs) + file_align - 1) // file_align * file_align
    head = bytearray(raw)
    struct.pack_into("<H", head, 0, 0x5A4D)
    struct.pack_into("<I", head, 0x3C, pe_offset)
    struct.pack_into("<I", head, pe_offset, 0x00004550)
    struct.pack_into("<HHIIIHH", head, pe_offset + 4, 0x8664, len(secs), 0, 0, 0, optional_size, 0x2022)
    opt = pe_offset + 24
    struct.pack_into("<H", head, opt, 0x20B)
    struct.pack_into("<II", head, opt + 32, 0x1000, file_align)
    body = bytearray()
    va = 0x1000
    for i, (name, data) in enumerate(secs):
        size = (len(data) + file_align - 1) // file_align * file_align
        struct.pack_into("<8sIIIIIIHHI", head, table + 40 * i, name.ljust(8, b"\0"), len(data), va, size,
                         raw + len(body), 0, 0, 0, 0, 0x40000040)
        body += data + b"\0" * (size - len(data))
        va += (len(data) + 0xFFF) // 0x1000 * 0x1000
    struct.pack_into("<II", head, opt + 56, va, raw)
    struct.pack_into("<H", head, opt + 68, 3)
    struct.pack_into("<I", head, opt + 108, 16)
    return head + body, table


def elf_cases():
    host = read("libhostonly.so")  # a real host library (no device code): ELF structure cases
    shoff, = struct.unpack_from("<Q", host, 0x28)
    shnum, = struct.unpack_from("<H", host, 0x3C)
    put("elf", "truncated-ident.so", host[:10])
    put("elf", "truncated-header.so", host[:40])
    put("elf", "unknown-class.so", patch(host, 4, "<B", 3))
    put("elf", "unknown-encoding.so", patch(host, 5, "<B", 0))
    put("elf", "section-table-past-end.so", patch(host, 0x28, "<Q", 0x7FFF0000))
    put("elf", "section-table-negative.so", patch(host, 0x28, "<Q", 0xFFFFFFFFFFFFFF00))
    put("elf", "section-header-size-small.so", patch(host, 0x3A, "<H", 32))
    put("elf", "section-count-lies.so", patch(host, 0x3C, "<H", 0xFEFF))
    put("elf", "section-table-truncated.so", host[:shoff + 64 * (shnum // 2) + 10])
    put("elf", "shstrndx-out-of-range.so", patch(host, 0x3E, "<H", 0xFEFE))
    x = patch(patch(host, 0x3C, "<H", 0), shoff + 0x20, "<Q", 0xFFFFFFFFFFFF)
    put("elf", "extended-count-lies.so", x)
    x = patch(patch(host, 0x3C, "<H", 0), shoff + 0x20, "<Q", 0xFFFFFFFFFFFFFFFF)
    put("elf", "extended-count-negative.so", x)
    x = patch(patch(host, 0x3E, "<H", 0xFFFF), shoff + 0x28, "<I", 0xFFFFFFFF)
    put("elf", "extended-shstrndx-loop.so", x)
    strtab = section(host, ".shstrtab")
    put("elf", "section-names-past-end.so", patch(host, strtab[2] + 0x18, "<Q", 0x7FFFFFFF))
    put("elf", "section-name-outside-table.so", patch(host, shoff + 64 * 3, "<I", 0xFFFFFF))

    obj = read("frames.o")  # a real relocatable object with .nv_fatbin: where the device code is
    fat = section(obj, ".nv_fatbin")
    put("elf", "fatbin-section-past-end.o", patch(obj, fat[2] + 0x18, "<Q", 0x10000000))
    put("elf", "fatbin-section-nobits.o", patch(obj, fat[2] + 4, "<I", 8))
    put("elf", "truncated-inside-fatbin.o", obj[:fat[4] + 1000])
    put("elf", "fatbin-magic-without-section-table.o", patch(obj, 0x28, "<Q", 0))
    put("elf", "fatbin-section-bad-magic.o", patch(obj, fat[4], "<I", 0x12345678))
    put("elf", "unreadable-warning.so", patch(host, 0x28, "<Q", 0x7FFF0000))


def cubin_cases():
    cubin = read("frames_sm90.cubin")
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    put("cubin", "section-table-offset-zero.cubin", patch(cubin, 0x28, "<Q", 0))
    put("cubin", "abi-version-9.cubin", patch(cubin, 8, "<B", 9))
    put("cubin", "elf32.cubin", patch(cubin, 4, "<B", 1))
    flags, = struct.unpack_from("<I", cubin, 0x30)
    put("cubin", "sm-number-5.cubin", patch(cubin, 0x30, "<I", (flags & ~0xFF00) | (5 << 8)))
    info = section(cubin, ".nv.info")
    put("cubin", "nv-info-record-format.cubin", patch(cubin, info[4], "<B", 7))
    # the first SVAL record (format 4) of .nv.info: its length past the section
    pos = info[4]
    while cubin[pos] != 4:
        pos += 4
    put("cubin", "nv-info-record-length.cubin", patch(cubin, pos + 2, "<H", 0xFFF0))
    # the first REGCOUNT (0x2f) record naming a symbol that does not exist
    pos = info[4]
    while not (cubin[pos] == 4 and cubin[pos + 1] == 0x2F):
        pos += 4 + (struct.unpack_from("<H", cubin, pos + 2)[0] if cubin[pos] == 4 else 0)
    put("cubin", "nv-info-symbol-beyond-table.cubin", patch(cubin, pos + 4, "<I", 0x7FFF))
    symtab = section(cubin, ".symtab")
    put("cubin", "symbol-table-link.cubin", patch(cubin, symtab[2] + 0x28, "<I", 999))
    # the first STT_FUNC symbol with SHN_XINDEX and no SHT_SYMTAB_SHNDX section
    for k in range(symtab[5] // 24):
        at = symtab[4] + 24 * k
        if cubin[at + 4] & 0xF == 2:
            put("cubin", "symbol-xindex-without-table.cubin", patch(cubin, at + 6, "<H", 0xFFFF))
            break
    put("cubin", "truncated.cubin", cubin[:len(cubin) // 2])
    put("cubin", "unreadable-warning.cubin", patch(cubin, 0x28, "<Q", 0))


def ar_cases():
    ar = read("libframes.a")  # '/', 'frames.o/', 'hostonly.o/'
    first = 8  # the symbol table member header
    second = 8 + 60 + 234  # frames.o
    put("ar", "truncated-member-header.a", ar[:8 + 30])
    put("ar", "member-size-past-end.a", ar[:second + 60 + 2000][:first + 48] + b"99999999  " + ar[first + 58:second + 2060])
    x = bytearray(ar[:second + 2060])
    x[first + 48:first + 58] = b"12a       "
    put("ar", "member-size-not-decimal.a", x)
    x = bytearray(ar[:second + 2060])
    x[first + 58:first + 60] = b"\n\n"
    put("ar", "member-header-terminator.a", x)
    x = bytearray(ar[:second + 60 + 2000])
    x[second + 48:second + 58] = b"2000".ljust(10)
    x[second:second + 16] = b"/9999".ljust(16)
    put("ar", "long-name-outside-table.a", x)
    x = bytearray(ar[:second + 60 + 2000])
    x[second + 48:second + 58] = b"2000".ljust(10)
    x[second:second + 16] = b"#1/99999".ljust(16)
    put("ar", "bsd-name-longer-than-member.a", x)
    x = bytearray(b"!<thin>\n" + ar[8:second])
    put("ar", "thin.a", x)
    # frames.o cut to 2000 bytes: its member size says so, and the archive ends there
    x = bytearray(ar[:second + 60 + 2000])
    x[second + 48:second + 58] = b"2000".ljust(10)
    put("ar", "member-elf-truncated.a", x)
    x = bytearray(ar[:second + 60 + 2000])
    x[second + 48:second + 58] = b"-5".ljust(10)
    put("ar", "member-size-negative.a", x)


def fatbin_cases():
    frames = read("frames.fatbin")  # one container: an sm_90 cubin, a Zstandard-compressed PTX
    ptx = one_entry(frames, 1)  # 16 + 80 + 4336 bytes: the structure cases
    e = 16
    put("fatbin", "container-version-2.fatbin", patch(ptx, 4, "<H", 2))
    put("fatbin", "container-header-size.fatbin", patch(ptx, 6, "<H", 0x20))
    put("fatbin", "container-size-lies.fatbin", patch(ptx, 8, "<Q", 0x7FFFFFFFFFFF))
    put("fatbin", "container-size-negative.fatbin", patch(ptx, 8, "<Q", 0xFFFFFFFFFFFFFFF0))
    put("fatbin", "second-container-bad-magic.fatbin", ptx + struct.pack("<IHHQ", 0xDEADBEEF, 1, 0x10, 0))
    put("fatbin", "trailing-junk.fatbin", ptx + b"\xAA" * 5)
    put("fatbin", "entry-kind-7.fatbin", patch(ptx, e, "<H", 7))
    put("fatbin", "entry-header-size-odd.fatbin", patch(ptx, e + 4, "<I", 0x44))
    put("fatbin", "entry-header-size-huge.fatbin", patch(ptx, e + 4, "<I", 0x7FFFFFF8))
    put("fatbin", "entry-payload-lies.fatbin", patch(ptx, e + 8, "<Q", 0x100000000))
    put("fatbin", "entry-payload-negative.fatbin", patch(ptx, e + 8, "<Q", 0x8000000000000000))
    flags, = struct.unpack_from("<Q", ptx, e + 0x28)
    put("fatbin", "entry-unknown-flag.fatbin", patch(ptx, e + 0x28, "<Q", flags | 0x4))
    put("fatbin", "entry-both-compressions.fatbin", patch(ptx, e + 0x28, "<Q", flags | 0x2000))
    put("fatbin", "entry-both-variants.fatbin", patch(ptx, e + 0x28, "<Q", flags | 0x300000))
    put("fatbin", "ptx-options-descriptor-outside.fatbin", patch(ptx, e + 0x14, "<I", 0xFFF0))
    put("fatbin", "entry-identifier-outside.fatbin", patch(patch(ptx, e + 0x20, "<I", 0x48), e + 0x24, "<I", 0x1000))
    put("fatbin", "entry-arch-3.fatbin", patch(ptx, e + 0x1C, "<I", 3))
    put("fatbin", "truncated-entry-header.fatbin", patch(ptx[:16 + 0x20], 8, "<Q", 0x20))
    cubin = one_entry(frames, 0)  # the uncompressed sm_90 cubin
    put("fatbin", "cubin-entry-not-elf.fatbin", patch(cubin, 16 + 64, "<I", 0))
    put("fatbin", "cubin-entry-big-endian.fatbin", patch(cubin, 16 + 64 + 5, "<B", 2))


def compressed_cases():
    z = nv_fatbin("libframes_zstd.so")
    zc = one_entry(z, largest_cubin(z))  # one Zstandard-compressed sm_90 cubin
    e = 16
    payload = e + 64
    csize, = struct.unpack_from("<I", zc, e + 0x10)
    usize, = struct.unpack_from("<Q", zc, e + 0x38)
    x = bytearray(zc)
    x[payload + 8:payload + 64] = b"\xFF" * 56
    put("compressed", "zstd-corrupt-frame.fatbin", x)
    put("compressed", "zstd-declares-more.fatbin", patch(zc, e + 0x38, "<Q", usize + 8))
    put("compressed", "zstd-declares-less.fatbin", patch(zc, e + 0x38, "<Q", usize - 100))
    put("compressed", "zstd-declares-2-tib.fatbin", patch(zc, e + 0x38, "<Q", 2 << 40))
    put("compressed", "zstd-declares-zero.fatbin", patch(zc, e + 0x38, "<Q", 0))
    put("compressed", "zstd-compressed-size-zero.fatbin", patch(zc, e + 0x10, "<I", 0))
    put("compressed", "zstd-compressed-size-past-payload.fatbin", patch(zc, e + 0x10, "<I", csize + 100))
    put("compressed", "zstd-truncated-frame.fatbin", patch(zc, e + 0x10, "<I", csize // 2))
    # a bomb: 512 MiB of zeros from 16 KB of RLE blocks, declared as the real size
    bomb = zstd_rle_bomb(512 << 20)
    psize = (len(bomb) + 7) & ~7
    header = bytearray(zc[e:e + 64])
    struct.pack_into("<QI", header, 8, psize, len(bomb))
    put("compressed", "zstd-bomb-512-mib.fatbin", container(header + bomb + b"\0" * (psize - len(bomb))))

    l = nv_fatbin("libframes_lz4.so")
    lc = one_entry(l, largest_cubin(l))  # one LZ4-compressed sm_90 cubin
    csize, = struct.unpack_from("<I", lc, e + 0x10)
    usize, = struct.unpack_from("<Q", lc, e + 0x38)
    put("compressed", "lz4-corrupt-block.fatbin", patch(patch(lc, payload, "<B", 0xFF), payload + 1, "<B", 0xFF))
    put("compressed", "lz4-declares-more.fatbin", patch(lc, e + 0x38, "<Q", usize + 8))
    put("compressed", "lz4-declares-less.fatbin", patch(lc, e + 0x38, "<Q", usize - 100))
    put("compressed", "lz4-declares-2-tib.fatbin", patch(lc, e + 0x38, "<Q", 2 << 40))
    put("compressed", "lz4-compressed-size-short.fatbin", patch(lc, e + 0x10, "<I", csize - 1))


def pe_cases():
    frames = read("frames.fatbin")
    image, table = pe(frames)
    put("pe", "lfanew-past-end.dll", patch(image, 0x3C, "<I", 0x7FFFFFF0))
    put("pe", "lfanew-unaligned.dll", patch(image, 0x3C, "<I", 0x81))
    put("pe", "bad-signature.dll", patch(image, 0x80, "<I", 0x00004C45))
    put("pe", "optional-magic.dll", patch(image, 0x98, "<H", 0x107))
    put("pe", "optional-size-zero.dll", patch(image, 0x94, "<H", 0))
    put("pe", "optional-size-small.dll", patch(image, 0x94, "<H", 100))
    put("pe", "section-count-lies.dll", patch(image, 0x86, "<H", 60000))
    fatb = table + 40
    put("pe", "nv-fatb-past-end.dll", patch(image, fatb + 20, "<I", 0x7FFFFF00))
    put("pe", "long-name-without-string-table.dll", image[:fatb] + b"/4\0\0\0\0\0\0" + image[fatb + 8:])
    raw, = struct.unpack_from("<I", image, fatb + 20)
    put("pe", "nv-fatb-bad-magic.dll", patch(image, raw, "<I", 0x12345678))
    put("pe", "nv-fatb-truncated.dll", image[:raw + 1000])


if __name__ == "__main__":
    if not os.path.isdir(TC):
        sys.exit("target/test-cuda is missing: run the build first (mvn generate-test-resources)")
    elf_cases()
    cubin_cases()
    ar_cases()
    fatbin_cases()
    compressed_cases()
    pe_cases()
