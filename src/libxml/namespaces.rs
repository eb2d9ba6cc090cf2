//! The namespace bindings in scope (libxml2's `ctxt->nsTab`, `nsPush`,
//! `nsPop`): prefixes and URIs one after the other in one reused buffer,
//! cut back when the element that declared them ends, so that a
//! namespace-declaring element allocates nothing in the steady state.

/// The namespace a name is in: the one the prefix `xml` is bound to, or a
/// binding of the stack (which outlives the element and attributes that
/// refer to it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NsUri {
    Xml,
    Bound(usize),
}

/// The namespace the prefix `xml` is bound to.
pub(super) const XML_NS: &[u8] = b"http://www.w3.org/XML/1998/namespace";

/// The bindings in scope, innermost last.
#[derive(Debug, Default)]
pub(super) struct Namespaces {
    /// Each binding's prefix then URI.
    bytes: Vec<u8>,
    bindings: Vec<Binding>,
}

/// Where a binding's prefix (`bytes[start..uri_start]`, `None` for the
/// default namespace) and URI (`bytes[uri_start..end]`) are.
#[derive(Clone, Copy, Debug)]
struct Binding {
    start: usize,
    uri_start: usize,
    end: usize,
    prefixed: bool,
}

impl Namespaces {
    /// How many bindings are in scope.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.bindings.len()
    }

    /// `nsPush`: binds `prefix` to `uri`.
    pub(super) fn push(&mut self, prefix: Option<&[u8]>, uri: &[u8]) {
        let start = self.bytes.len();
        self.bytes.extend_from_slice(prefix.unwrap_or_default());
        let uri_start = self.bytes.len();
        self.bytes.extend_from_slice(uri);
        self.bindings.push(Binding {
            start,
            uri_start,
            end: self.bytes.len(),
            prefixed: prefix.is_some(),
        });
    }

    /// `nsPop`: keeps the first `len` bindings.
    #[inline]
    pub(super) fn truncate(&mut self, len: usize) {
        if len < self.bindings.len() {
            self.bytes.truncate(self.bindings[len].start);
            self.bindings.truncate(len);
        }
    }

    /// The `k`th binding: (prefix, URI).
    #[inline]
    pub(super) fn binding(&self, k: usize) -> (Option<&[u8]>, &[u8]) {
        let b = self.bindings[k];
        let prefix = b.prefixed.then(|| &self.bytes[b.start..b.uri_start]);
        (prefix, &self.bytes[b.uri_start..b.end])
    }

    /// Whether a binding from the `from`th on binds `prefix`.
    pub(super) fn binds_from(&self, from: usize, prefix: Option<&[u8]>) -> bool {
        (from..self.len()).any(|k| self.binding(k).0 == prefix)
    }

    /// The URI of `ns`.
    #[inline]
    pub(super) fn uri(&self, ns: NsUri) -> &[u8] {
        match ns {
            NsUri::Xml => XML_NS,
            NsUri::Bound(k) => self.binding(k).1,
        }
    }

    /// `xmlGetNamespace`: the namespace `prefix` is bound to; an empty
    /// default namespace is none.
    pub(super) fn lookup(&self, prefix: Option<&[u8]>) -> Option<NsUri> {
        if prefix == Some(b"xml") {
            return Some(NsUri::Xml);
        }
        let k = (0..self.len())
            .rev()
            .find(|&k| self.binding(k).0 == prefix)?;
        if prefix.is_none() && self.binding(k).1.is_empty() {
            return None;
        }
        Some(NsUri::Bound(k))
    }
}

#[cfg(test)]
mod tests {
    use super::{Namespaces, NsUri, XML_NS};

    #[test]
    fn bindings_nest_and_are_cut_back() {
        let mut ns = Namespaces::default();
        ns.push(None, b"urn:d");
        ns.push(Some(b"p"), b"urn:p");
        let outer = ns.len();
        ns.push(Some(b"p"), b"urn:inner");
        ns.push(None, b"");
        assert_eq!(
            ns.lookup(Some(b"p")).map(|u| ns.uri(u)),
            Some(&b"urn:inner"[..])
        );
        assert_eq!(ns.lookup(None), None);
        assert_eq!(ns.lookup(Some(b"q")), None);
        assert_eq!(ns.lookup(Some(b"xml")), Some(NsUri::Xml));
        assert_eq!(ns.uri(NsUri::Xml), XML_NS);
        assert!(ns.binds_from(outer, None));
        assert!(!ns.binds_from(outer, Some(b"q")));
        ns.truncate(outer);
        assert_eq!(ns.len(), 2);
        assert_eq!(
            ns.lookup(Some(b"p")).map(|u| ns.uri(u)),
            Some(&b"urn:p"[..])
        );
        assert_eq!(ns.lookup(None).map(|u| ns.uri(u)), Some(&b"urn:d"[..]));
        assert_eq!(ns.binding(1), (Some(&b"p"[..]), &b"urn:p"[..]));
        ns.push(Some(b""), b"u");
        assert_eq!(ns.binding(2), (Some(&b""[..]), &b"u"[..]));
        ns.truncate(0);
        assert_eq!((ns.len(), ns.bytes.len()), (0, 0));
    }
}
