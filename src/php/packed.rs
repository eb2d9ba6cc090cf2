//! The owned [`Event`](crate::Event)s of several strings (processing
//! instructions, DTD declarations, external entity references, namespace
//! declarations), each held in one buffer, so that such an event costs
//! one allocation, as a [`StartTag`](crate::StartTag) does.

use std::fmt;

/// The bytes of one length in a [`Packed`] buffer.
const LEN: usize = size_of::<usize>();

/// The length that marks an absent string (PHP's `false`).
const ABSENT: usize = usize::MAX;

/// `N` strings, each present or absent, in one buffer: their `N` lengths
/// (native-endian `usize`s, [`ABSENT`] for none), then the present
/// strings one after another. Equal strings give equal bytes, so the
/// derived comparisons and hash are those of the strings.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Packed<const N: usize> {
    bytes: Vec<u8>,
}

impl<const N: usize> Packed<N> {
    /// `strings` in `buffer` (its allocation kept when large enough).
    pub(crate) fn in_buffer(mut buffer: Vec<u8>, strings: [Option<&[u8]>; N]) -> Self {
        let total: usize = strings.iter().flatten().map(|s| s.len()).sum();
        buffer.clear();
        buffer.reserve_exact(N * LEN + total);
        for s in strings {
            buffer.extend_from_slice(&s.map_or(ABSENT, <[u8]>::len).to_ne_bytes());
        }
        for s in strings.into_iter().flatten() {
            buffer.extend_from_slice(s);
        }
        Self { bytes: buffer }
    }

    /// `strings` in a buffer of their own.
    fn new(strings: [Option<&[u8]>; N]) -> Self {
        Self::in_buffer(Vec::new(), strings)
    }

    /// The `i`th length of the header.
    fn len_at(&self, i: usize) -> usize {
        self.bytes
            .get(i * LEN..(i + 1) * LEN)
            .and_then(|b| b.try_into().ok())
            .map_or(ABSENT, usize::from_ne_bytes)
    }

    /// The `i`th string.
    fn get(&self, i: usize) -> Option<&[u8]> {
        let len = self.len_at(i);
        if len == ABSENT {
            return None;
        }
        let at = N * LEN
            + (0..i)
                .map(|j| self.len_at(j))
                .filter(|&l| l != ABSENT)
                .sum::<usize>();
        self.bytes.get(at..at + len)
    }

    /// Every string.
    fn strings(&self) -> [Option<&[u8]>; N] {
        std::array::from_fn(|i| self.get(i))
    }

    /// A copy with the `i`th string replaced by `s`.
    fn with(&self, i: usize, s: Option<&[u8]>) -> Self {
        let mut strings = self.strings();
        if let Some(slot) = strings.get_mut(i) {
            *slot = s;
        }
        Self::new(strings)
    }

    /// The buffer, for the reader's reuse of spent events.
    pub(crate) fn into_buffer(self) -> Vec<u8> {
        self.bytes
    }
}

/// A byte string in `Debug` output: `b"..."`, escaped.
pub(crate) struct DebugBytes<'a>(pub(crate) &'a [u8]);

impl fmt::Debug for DebugBytes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "b\"{}\"", self.0.escape_ascii())
    }
}

/// An event type over a [`Packed`] buffer: its first string always
/// present (`$first`), the others optional, each with an accessor and a
/// `with_` method that sets it; `Debug` as a struct of those fields.
macro_rules! packed_event {
    (
        $(#[$doc:meta])*
        $name:ident($n:literal) {
            $(#[$first_doc:meta])* $first:ident,
            $($(#[$field_doc:meta])* $index:literal => $field:ident / $with:ident,)*
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq, Hash)]
        pub struct $name(pub(crate) Packed<$n>);

        impl $name {
            #[doc = concat!("A `", stringify!($name), "` of `", stringify!($first), "`, every other string absent.")]
            #[must_use]
            pub fn new($first: impl AsRef<[u8]>) -> Self {
                let mut strings = [None; $n];
                strings[0] = Some($first.as_ref());
                Self(Packed::new(strings))
            }

            $(#[$first_doc])*
            #[must_use]
            pub fn $first(&self) -> &[u8] {
                self.0.get(0).unwrap_or_default()
            }

            $(
                $(#[$field_doc])*
                #[must_use]
                pub fn $field(&self) -> Option<&[u8]> {
                    self.0.get($index)
                }

                #[doc = concat!("This event with `", stringify!($field), "` set to `value`.")]
                #[must_use]
                pub fn $with(self, value: impl AsRef<[u8]>) -> Self {
                    Self(self.0.with($index, Some(value.as_ref())))
                }
            )*
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($name))
                    .field(stringify!($first), &DebugBytes(self.$first()))
                    $(.field(stringify!($field), &self.$field().map(DebugBytes)))*
                    .finish()
            }
        }
    };
}

packed_event! {
    /// What the processing instruction handler gets, in one buffer.
    ///
    /// ```
    /// use phpxml::{Event, Parser, ProcessingInstruction};
    ///
    /// let mut events = Parser::new(None)?.events(&b"<a><?php echo 1;?></a>"[..]);
    /// events.next();
    /// let Some(Ok(Event::ProcessingInstruction(pi))) = events.next() else { panic!() };
    /// assert_eq!((pi.target(), pi.data()), (&b"php"[..], Some(&b"echo 1;"[..])));
    /// assert_eq!(pi, ProcessingInstruction::new("php").with_data("echo 1;"));
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    ProcessingInstruction(2) {
        /// The PI target.
        target,
        /// The data, `None` when there is none.
        1 => data / with_data,
    }
}

packed_event! {
    /// What the unparsed entity declaration handler gets
    /// (`<!ENTITY name SYSTEM "..." NDATA notation>`), in one buffer.
    ///
    /// ```
    /// use phpxml::UnparsedEntityDecl;
    ///
    /// let decl = UnparsedEntityDecl::new("logo").with_system_id("logo.png").with_notation("png");
    /// assert_eq!((decl.name(), decl.base()), (&b"logo"[..], None));
    /// assert_eq!(decl.notation(), Some(&b"png"[..]));
    /// ```
    UnparsedEntityDecl(5) {
        /// The entity name.
        name,
        /// Always `None` with libxml2.
        1 => base / with_base,
        /// The system id.
        2 => system_id / with_system_id,
        /// The public id.
        3 => public_id / with_public_id,
        /// The notation name.
        4 => notation / with_notation,
    }
}

packed_event! {
    /// What the notation declaration handler gets, in one buffer.
    ///
    /// ```
    /// use phpxml::NotationDecl;
    ///
    /// let decl = NotationDecl::new("png").with_public_id("image/png");
    /// assert_eq!((decl.name(), decl.public_id(), decl.system_id()), (&b"png"[..], Some(&b"image/png"[..]), None));
    /// ```
    NotationDecl(4) {
        /// The notation name.
        name,
        /// Always `None` with libxml2.
        1 => base / with_base,
        /// The system id.
        2 => system_id / with_system_id,
        /// The public id.
        3 => public_id / with_public_id,
    }
}

packed_event! {
    /// What the external entity reference handler gets, in one buffer.
    ///
    /// ```
    /// use phpxml::ExternalEntityRef;
    ///
    /// let reference = ExternalEntityRef::new("chapter").with_base("").with_system_id("ch1.xml");
    /// assert_eq!(reference.open_entity_names(), b"chapter");
    /// assert_eq!((reference.base(), reference.public_id()), (Some(&b""[..]), None));
    /// ```
    ExternalEntityRef(4) {
        /// The names of the open entities.
        open_entity_names,
        /// `Some(b"")` with libxml2.
        1 => base / with_base,
        /// The system id.
        2 => system_id / with_system_id,
        /// The public id.
        3 => public_id / with_public_id,
    }
}

packed_event! {
    /// What the start namespace declaration handler gets, in one buffer.
    ///
    /// ```
    /// use phpxml::{Event, HandlerSet, NamespaceDecl, Parser};
    ///
    /// let doc = &b"<a xmlns='urn:d' xmlns:p='urn:p'/>"[..];
    /// let declarations: Vec<Event> = Parser::new_ns(None, ":")?
    ///     .events(doc)
    ///     .with_handlers(HandlerSet::ALL)
    ///     .filter_map(Result::ok)
    ///     .filter(|e| matches!(e, Event::StartNamespaceDecl(_)))
    ///     .collect();
    /// assert_eq!(declarations, [
    ///     Event::StartNamespaceDecl(NamespaceDecl::new("urn:d")),
    ///     Event::StartNamespaceDecl(NamespaceDecl::new("urn:p").with_prefix("p")),
    /// ]);
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    NamespaceDecl(2) {
        /// The namespace URI.
        uri,
        /// The prefix, `None` for the default namespace.
        1 => prefix / with_prefix,
    }
}
