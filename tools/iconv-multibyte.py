#!/usr/bin/env python3
"""Asks glibc's iconv on this machine (what libxml2 2.9.14 calls for every
label it does not decode itself) how the multi-byte charsets decode every
byte sequence (the CJK ones, and ISO 6937's family, whose accents come
before the letter they mark), and writes src/libxml/charsets/multi_byte/:
one table file per charset (NAME.bin) and labels.txt (every label iconv
resolves to one of them, with the charset's name).

    tools/iconv-multibyte.py            # regenerate
    tools/iconv-multibyte.py --check    # fail if the committed files differ
    tools/iconv-multibyte.py --list     # charsets and labels, one per line

A table is a tree of 256-entry nodes, one level per byte, walked from node
0; EUC-TW's alike nodes are shared, so a node there may have several
parents. All little-endian u32:

    header   node_count, pair_count, run_count
    nodes    node_count * 256 entries
    pairs    pair_count * 2 code points
    runs     run_count * (first linear index, length, first code point)

An entry is a code point (the sequence is complete), ILLEGAL (iconv
answers EILSEQ at the sequence's first byte), NODE|i (iconv waits for
another byte: EINVAL when the input ends here; node i decides it), PAIR|i
(two code points, pairs[i]), DROPPED (iconv consumes the sequence, writes
nothing and answers EILSEQ: glibc's UHC for A2E8, the KS X 1001:2002
addition it leaves out) or FOUR (a GB18030 four-byte sequence: the next
bytes must be 81..FE then 30..39, and its linear index is looked up in the
runs; outside them iconv answers EILSEQ). Every entry is what iconv
answered for exactly that sequence, from the initial state, as
xmlIconvWrapper calls it; the four-byte pattern is checked over every
third byte and sampled fourth bytes.
"""
import importlib.util
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "libxml", "charsets", "multi_byte")
spec = importlib.util.spec_from_file_location("iconv_tables", os.path.join(ROOT, "tools", "iconv-tables.py"))
it = importlib.util.module_from_spec(spec)
spec.loader.exec_module(it)

# gconv module -> the name phpxml shows for it
CHARSETS = {
    "SJIS": "SHIFT_JIS", "CP932": "WINDOWS-31J", "EUC-JP": "EUC-JP", "EUC-CN": "GB2312",
    "GBK": "GBK", "GB18030": "GB18030", "BIG5": "BIG5", "BIG5HKSCS": "BIG5-HKSCS",
    "EUC-KR": "EUC-KR", "UHC": "CP949", "JOHAB": "JOHAB", "IBM932": "IBM932", "IBM943": "IBM943",
    "EUC-JP-MS": "EUC-JP-MS", "EUC-JISX0213": "EUC-JISX0213", "SHIFT_JISX0213": "SHIFT_JISX0213",
    "ISO_6937": "ISO_6937", "ISO_6937-2": "ISO_6937-2", "ANSI_X3.110": "ANSI_X3.110", "T.61-8BIT": "T.61",
    "EUC-TW": "EUC-TW",
}
# charsets with four-byte sequences in the tree (EUC-TW's 8E A1..B0 planes);
# iconv waits on every plane byte, so most of their nodes are alike and
# are shared
FOUR_DEEP = {"EUC-TW"}
GCONV_DIRS = ["/usr/lib/x86_64-linux-gnu/gconv", "/usr/lib/gconv", "/usr/lib64/gconv"]
ILLEGAL, NODE, PAIR, FOUR, DROPPED = 0xFFFFFFFF, 0x80000000, 0x40000000, 0x20000000, 0x10000000


def aliases():
    """module -> every name gconv's configuration gives it."""
    found = {m: {m} for m in CHARSETS}
    for d in GCONV_DIRS:
        files = [os.path.join(d, "gconv-modules")]
        conf = os.path.join(d, "gconv-modules.d")
        if os.path.isdir(conf):
            files += [os.path.join(conf, f) for f in sorted(os.listdir(conf)) if f.endswith(".conf")]
        for path in files:
            if not os.path.exists(path):
                continue
            for line in open(path):
                w = line.split()
                if len(w) >= 3 and w[0] == "alias" and w[2].rstrip("/") in found:
                    found[w[2].rstrip("/")].add(w[1].rstrip("/").upper())
        if any(len(v) > 1 for v in found.values()):
            break
    return found


def probe(cd, seq):
    """('char', [code points]) | ('illegal',) | ('more',), checked to be
    about the whole sequence."""
    out, used, err = it.convert(cd, seq)
    if err == it.EILSEQ and used == 0 and not out:
        return ("illegal",)
    if err == it.EILSEQ and used == len(seq) and not out:
        return ("dropped",)
    if err == it.EINVAL and used == 0 and not out:
        return ("more",)
    if err == 0 and used == len(seq):
        return ("char", [ord(c) for c in out.decode("utf-8", "surrogatepass")])
    return ("other", out, used, err)


class Table:
    def __init__(self):
        self.nodes, self.pairs, self.runs = [], [], []

    def entry(self, answer, seq):
        if answer[0] == "illegal":
            return ILLEGAL
        if answer[0] == "dropped":
            return DROPPED
        if answer[0] == "char" and len(answer[1]) == 1:
            return answer[1][0]
        if answer[0] == "char" and len(answer[1]) == 2:
            self.pairs.append(answer[1])
            return PAIR | (len(self.pairs) - 1)
        sys.exit(f"iconv answers {answer} for {bytes(seq).hex()}: not a table entry")


def four_byte_index(b1, b2, b3, b4):
    return (((b1 - 0x81) * 10 + (b2 - 0x30)) * 126 + (b3 - 0x81)) * 10 + (b4 - 0x30)


def four_byte(cd, table, b1, b2):
    """GB18030's four-byte sequences under b1 b2: iconv waits for two more
    bytes whatever they are, then decodes b3 in 81..FE and b4 in 30..39 or
    answers EILSEQ. Checks the pattern (every b3; every b4 under a sample
    of b1) and adds the code points to table.cps (linear index -> code
    point)."""
    every_b4 = b1 in (0x81, 0x84, 0x90, 0xE3, 0xFE)
    for b3 in range(256):
        if probe(cd, [b1, b2, b3]) != ("more",):
            sys.exit(f"GB18030 {b1:02X}{b2:02X}{b3:02X}: iconv does not wait")
        if not (every_b4 or 0x81 <= b3 <= 0xFE or b3 in (0x00, 0x80, 0xFF)):
            continue
        for b4 in range(256) if every_b4 or b3 in (0x81, 0xFE) else range(0x30, 0x3A):
            a = probe(cd, [b1, b2, b3, b4])
            if 0x81 <= b3 <= 0xFE and 0x30 <= b4 <= 0x39 and a[0] == "char" and len(a[1]) == 1:
                table.cps[four_byte_index(b1, b2, b3, b4)] = a[1][0]
            elif a != ("illegal",):
                sys.exit(f"GB18030 {b1:02X}{b2:02X}{b3:02X}{b4:02X}: {a}")


def build(cd, deep=False):
    table = Table()
    table.cps = {}

    def node(prefix):
        i = len(table.nodes)
        table.nodes.append(None)
        entries = []
        for b in range(256):
            seq = prefix + [b]
            a = probe(cd, seq)
            if a[0] == "more":
                if len(prefix) == 1 and 0x30 <= b <= 0x39 and 0x81 <= prefix[0] <= 0xFE:
                    four_byte(cd, table, prefix[0], b)
                    entries.append(FOUR)
                elif len(seq) >= (4 if deep else 3):
                    sys.exit(f"iconv waits after {bytes(seq).hex()}")
                else:
                    entries.append(NODE | node(seq))
            else:
                entries.append(table.entry(a, seq))
        table.nodes[i] = entries
        return i

    node([])
    runs = []
    for index in sorted(table.cps):
        cp = table.cps[index]
        if runs and runs[-1][0] + runs[-1][1] == index and runs[-1][2] + runs[-1][1] == cp:
            runs[-1][1] += 1
        else:
            runs.append([index, 1, cp])
    table.runs = runs
    return table


def share_alike(table):
    """Nodes with the same entries (their children shared first) become one;
    node 0 stays the root. Children are made after their parents, so one
    pass from the last node back sees every child before its parent."""
    same, alias = {}, {}
    for i in range(len(table.nodes) - 1, -1, -1):
        entries = tuple(alias[e & ~NODE] | NODE if e & NODE and e != ILLEGAL else e
                        for e in table.nodes[i])
        table.nodes[i] = entries
        alias[i] = same.setdefault(entries, i)
    if alias[0] != 0:
        sys.exit("the root is alike another node")
    kept = sorted(set(alias.values()))
    number = {old: new for new, old in enumerate(kept)}
    table.nodes = [[number[e & ~NODE] | NODE if e & NODE and e != ILLEGAL else e
                    for e in table.nodes[i]] for i in kept]


def stateless(cd, table):
    """Every complete two-byte sequence in one call decodes as each alone:
    nothing is held between characters."""
    seqs, want = [], []
    for lead, e in enumerate(table.nodes[0]):
        if e & NODE and e != ILLEGAL:  # (DROPPED has no NODE bit)
            for trail, t in enumerate(table.nodes[e & ~NODE]):
                if t < 0x110000:
                    seqs += [lead, trail]
                    want.append(t)
        elif e < 0x110000:
            seqs.append(lead)
            want.append(e)
    out, used, err = it.convert(cd, seqs)
    return err == 0 and used == len(seqs) and [ord(c) for c in out.decode("utf-8", "surrogatepass")] == want


def serialize(table):
    data = struct.pack("<3I", len(table.nodes), len(table.pairs), len(table.runs))
    for n in table.nodes:
        data += struct.pack("<256I", *n)
    for p in table.pairs:
        data += struct.pack("<2I", *p)
    for r in table.runs:
        data += struct.pack("<3I", *r)
    return data


def generate():
    files = {}
    labels = []
    for module, names in sorted(aliases().items()):
        name = CHARSETS[module]
        cd = it.opens(module)
        print(module, file=sys.stderr)
        if cd is None:
            sys.exit(f"iconv does not open {module}")
        table = build(cd, deep=module in FOUR_DEEP)
        if module in FOUR_DEEP:
            share_alike(table)
        if not stateless(cd, table):
            sys.exit(f"{module} holds state between characters")
        it.libc.iconv_close(cd)
        files[name + ".bin"] = serialize(table)
        for label in sorted(names):
            if it.is_xml_name(label) and (c := it.opens(label)) is not None:
                it.libc.iconv_close(c)
                labels.append((label, name))
    header = ("# Every label glibc's iconv resolves to a multi-byte charset, upper-cased,\n"
              "# and the charset's table: generated by tools/iconv-multibyte.py, do not edit.\n")
    files["labels.txt"] = (header + "".join(f"{l}\t{n}\n" for l, n in sorted(labels))).encode()
    return files


def main():
    files = generate()
    if "--list" in sys.argv:
        by = {}
        for line in files["labels.txt"].decode().splitlines():
            if not line.startswith("#"):
                l, n = line.split("\t")
                by.setdefault(n, []).append(l)
        for n, ls in sorted(by.items()):
            print(n + "\t" + " ".join(ls))
        return
    if "--check" in sys.argv:
        bad = [f for f, d in files.items() if not os.path.exists(os.path.join(OUT, f))
               or open(os.path.join(OUT, f), "rb").read() != d]
        if bad:
            sys.exit(f"{OUT}: {', '.join(bad)} differ from what iconv says on this machine")
        return
    os.makedirs(OUT, exist_ok=True)
    for f, d in files.items():
        with open(os.path.join(OUT, f), "wb") as out:
            out.write(d)
    print(f"{len(files) - 1} charsets, {len(files['labels.txt'].splitlines()) - 2} labels -> {OUT}")


if __name__ == "__main__":
    main()
