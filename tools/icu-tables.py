#!/usr/bin/env python3
"""Asks ICU 72 on this machine (libicuuc.so.72, what Debian 12's libxml2
2.9.14 opens for a label glibc's iconv does not know) how each of its
single-byte converters decodes every byte 00..FF, and writes the data
src/libxml/charsets/single_byte.rs reads for them: icu_single_byte.bin (256
little-endian u16 a converter, 0xFFFF for a byte ICU stops at) and
icu_single_byte.txt (the converter's name, a tab, every alias in the form
ICU compares names: `ucnv_io_stripASCIIForCompare`, letters and digits
lower-cased, a zero before a digit dropped unless a digit precedes it).

    tools/icu-tables.py                # regenerate
    tools/icu-tables.py --check        # fail if the committed files differ
    tools/icu-tables.py --labels       # per converter taken, one alias iconv
                                       # does not open (an XML name)
    tools/icu-tables.py --not-decoded  # ICU aliases (XML names) iconv does not
                                       # open, of converters not taken here

libxml2 opens ICU converters with the STOP callback (`openIcuConverter`),
so a byte without a mapping is an error; the tables ask the same.
"""
import ctypes
import importlib.util
import os
import sys

from table_files import write_or_check

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "libxml", "charsets", "icu_single_byte")

# iconv over ctypes, as tools/iconv-tables.py asks it
_spec = importlib.util.spec_from_file_location("iconv_tables", os.path.join(ROOT, "tools", "iconv-tables.py"))
iconv_tables = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(iconv_tables)

icu = ctypes.CDLL("libicuuc.so.72")
ERR = ctypes.POINTER(ctypes.c_int)


def fn(name, res, args):
    f = getattr(icu, name + "_72")
    f.restype, f.argtypes = res, args
    return f


count_available = fn("ucnv_countAvailable", ctypes.c_int32, [])
available_name = fn("ucnv_getAvailableName", ctypes.c_char_p, [ctypes.c_int32])
count_aliases = fn("ucnv_countAliases", ctypes.c_uint16, [ctypes.c_char_p, ERR])
alias = fn("ucnv_getAlias", ctypes.c_char_p, [ctypes.c_char_p, ctypes.c_uint16, ERR])
ucnv_open = fn("ucnv_open", ctypes.c_void_p, [ctypes.c_char_p, ERR])
ucnv_close = fn("ucnv_close", None, [ctypes.c_void_p])
get_name = fn("ucnv_getName", ctypes.c_char_p, [ctypes.c_void_p, ERR])
max_char_size = fn("ucnv_getMaxCharSize", ctypes.c_int8, [ctypes.c_void_p])
min_char_size = fn("ucnv_getMinCharSize", ctypes.c_int8, [ctypes.c_void_p])
set_to_u_callback = fn("ucnv_setToUCallBack", None, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                                     ctypes.c_void_p, ctypes.c_void_p, ERR])
to_uchars = fn("ucnv_toUChars", ctypes.c_int32, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32,
                                                 ctypes.c_char_p, ctypes.c_int32, ERR])
STOP = ctypes.cast(getattr(icu, "UCNV_TO_U_CALLBACK_STOP_72"), ctypes.c_void_p)


def strip_for_compare(name):
    """ICU's `ucnv_io_stripASCIIForCompare`."""
    out, after_digit = [], False
    for k, c in enumerate(name):
        if not c.isascii() or not c.isalnum():
            after_digit = False
            continue
        if c == "0":
            if not after_digit and name[k + 1:k + 2].isdigit():
                continue
        elif c.isdigit():
            after_digit = True
        else:
            c, after_digit = c.lower(), False
        out.append(c)
    return "".join(out)


def converters():
    """(name, aliases) of every converter ICU has."""
    err = ctypes.c_int(0)
    for i in range(count_available()):
        name = available_name(i)
        aliases = []
        for j in range(count_aliases(name, ctypes.byref(err))):
            aliases.append(alias(name, j, ctypes.byref(err)).decode())
        yield name.decode(), aliases


def single_byte_table(name):
    """The converter's 256 code points (None: ICU stops), or None when it is
    not a single-byte converter whose every byte is one UTF-16 unit."""
    err = ctypes.c_int(0)
    cnv = ucnv_open(name.encode(), ctypes.byref(err))
    try:
        if max_char_size(cnv) != 1 or min_char_size(cnv) != 1:
            return None
        set_to_u_callback(cnv, STOP, None, None, None, ctypes.byref(err))
        assert err.value <= 0, name
        table = []
        buf = (ctypes.c_uint16 * 8)()
        for b in range(256):
            err.value = 0
            n = to_uchars(cnv, buf, 8, bytes([b]), 1, ctypes.byref(err))
            if err.value in (10, 12):  # U_INVALID_CHAR_FOUND, U_ILLEGAL_CHAR_FOUND
                table.append(None)
            elif err.value <= 0 and n == 1 and not 0xD800 <= buf[0] < 0xE000 and buf[0] != 0xFFFF:
                table.append(buf[0])
            else:
                return None
        return table
    finally:
        ucnv_close(cnv)


def opens_as(label):
    """The converter `ucnv_open` picks for `label` (an alias may be listed
    under several converters; ICU opens its default one)."""
    err = ctypes.c_int(0)
    cnv = ucnv_open(label.encode(), ctypes.byref(err))
    if err.value > 0:
        return None
    name = get_name(cnv, ctypes.byref(err)).decode()
    ucnv_close(cnv)
    return name


def collect():
    taken, others = [], []
    for name, aliases in converters():
        table = single_byte_table(name)
        labels = sorted({strip_for_compare(a) for a in aliases if opens_as(a) == name} - {""})
        (taken if table else others).append((name, table, labels, aliases))
    return sorted(taken), others


def render(taken):
    points = bytearray()
    lines = []
    for name, table, labels, _ in taken:
        for c in table:
            points += (0xFFFF if c is None else c).to_bytes(2, "little")
        lines.append(name + "\t" + " ".join(labels) + "\n")
    return {OUT + ".bin": bytes(points), OUT + ".txt": "".join(lines).encode()}


def iconv_opens(label):
    cd = iconv_tables.opens(label)
    if cd is not None:
        iconv_tables.libc.iconv_close(cd)
    return cd is not None


def main():
    taken, others = collect()
    if "--not-decoded" in sys.argv:
        for name, _, _, aliases in others:
            for a in aliases:
                if iconv_tables.is_xml_name(a) and not iconv_opens(a):
                    print(name + "\t" + a)
        return
    if "--labels" in sys.argv:
        for name, _, _, aliases in taken:
            label = next((a for a in aliases if iconv_tables.is_xml_name(a) and not iconv_opens(a)
                          and opens_as(a) == name), None)
            if label:
                print(label)
        return
    if write_or_check(render(taken), "ICU"):
            print(f"{len(taken)} converters, {sum(len(t[2]) for t in taken)} aliases -> {OUT}.{{bin,txt}}")


if __name__ == "__main__":
    main()
