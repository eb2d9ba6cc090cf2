#!/usr/bin/env python3
"""Documents around libxml2 2.9.14's entity accounting (and PARSE_HUGE's limits).

    tools/entity-accounting.py FAMILY K > doc.xml

prints the document of FAMILY with parameter K. The fixtures
fixtures/php/limits/entity-copies-*, entity-chain-*, entity-50000-bytes-* were
made with it at the K where PHP's answer turns (found by running PHP over K).
"""
import sys


def copies(k):
    """An attribute names an entity that copies a 100-byte entity K times."""
    return ('<!DOCTYPE a [<!ENTITY b "' + "x" * 100 + '"><!ENTITY e "' + "&b;" * k
            + '">]><a x="&e;"/>')


def padded_copies(k):
    """copies after a 1,000-byte comment: more input read before the check."""
    return ('<!DOCTYPE a [<!--' + "c" * 1000 + '--><!ENTITY b "' + "x" * 100
            + '"><!ENTITY e "' + "&b;" * k + '">]><a x="&e;"/>')


def attr_refs(k):
    """K references to a 1,000-byte entity in one attribute value."""
    return '<!DOCTYPE a [<!ENTITY b "' + "x" * 1000 + '">]><a x="' + "&b;" * k + '"/>'


def chain(k):
    """K entities each naming the next, the last one "x"."""
    return ('<!DOCTYPE a [' + "".join(f'<!ENTITY e{i} "&e{i + 1};">' for i in range(k))
            + f'<!ENTITY e{k} "x">]><a x="&e0;"/>')


def content_copies(k):
    """K references in content to a 50,000-byte entity."""
    return '<!DOCTYPE a [<!ENTITY x "' + "x" * 50000 + '">]><a>' + "&x;" * k + "</a>"


def two_level(k):
    """e names c K times, c names a 10-byte entity 10 times."""
    return ('<!DOCTYPE a [<!ENTITY b "0123456789"><!ENTITY c "' + "&b;" * 10
            + '"><!ENTITY e "' + "&c;" * k + '">]><a x="&e;"/>')


def charrefs(k):
    """K character references in the entity an attribute names three times."""
    return '<!DOCTYPE a [<!ENTITY e "' + "&#233;" * k + '">]><a x="&e;&e;&e;"/>'


def repeat_attr(k):
    """An attribute names K times an entity of 20 references to 50 bytes."""
    return ('<!DOCTYPE a [<!ENTITY b "' + "y" * 50 + '"><!ENTITY e "' + "&b;" * 20
            + '">]><a x="' + "&e;" * k + '"/>')


def big_entity(k):
    """One entity of K bytes, named twice in an attribute."""
    return '<!DOCTYPE a [<!ENTITY e "' + "z" * k + '">]><a x="&e;&e;"/>'


FAMILIES = {f.__name__.replace("_", "-"): f for f in
            (copies, padded_copies, attr_refs, chain, content_copies, two_level,
             charrefs, repeat_attr, big_entity)}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in FAMILIES:
        sys.exit("usage: entity-accounting.py " + "|".join(FAMILIES) + " K")
    sys.stdout.write(FAMILIES[sys.argv[1]](int(sys.argv[2])))
