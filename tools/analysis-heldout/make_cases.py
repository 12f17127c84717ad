import json
C=[]
def case(**k): C.append(k)

case(id="smallvec_capacity_overflow", crate="smallvec", version="1.16.6", path="src/lib.rs", line=368,
 kind="`#[cold]`-less helper `infallible` turning a `CollectionAllocErr` into a panic; guard at callers",
 message="capacity overflow",
 must_mention=[["CapacityOverflow","checked_add","checked_next_power_of_two","checked_mul","overflows `usize`","overflows usize","usize overflow"],
               ["reserve","grow(","push","insert","extend"],
               ["infallible"],
               ["try_reserve","try_grow","try_reserve_exact"]],
 must_not_mention=["only in debug builds","out of memory"],
 rationale="lib.rs:365-373 `fn infallible` maps `Err(CollectionAllocErr::CapacityOverflow)` to this panic (and `AllocErr` to `handle_alloc_error`, not this text). Called by `grow` (:1325), `reserve` (:1382), `reserve_exact` (:1418-1420) and `reserve_one_unchecked` (:1387-1395, from `push` :1261 and `insert` :1526), which also has its own `.expect(\"capacity overflow\")` (:1393). `CapacityOverflow` comes from `try_reserve` (:1402-1410, `len.checked_add(additional).and_then(checked_next_power_of_two)`) and `layout_array` (:377-383, `size_of::<T>().checked_mul(n)`, `Layout::from_size_align`). `Extend::extend` (:2310-2314) calls `reserve(lower_size_bound)`, so an iterator with an absurd `size_hint` lower bound also reaches it. Fallible forms `try_reserve`, `try_grow`, `try_reserve_exact` return the error instead.",
 reference="`infallible()` (lib.rs:365-373) is the panic wrapper around smallvec's fallible growth: `SmallVec::reserve`, `reserve_exact`, `grow` and the growth inside `push`/`insert` (via `reserve_one_unchecked`, which has the same `expect`) call it, and it panics with this text when the result is `CollectionAllocErr::CapacityOverflow`. That happens when `len + additional` overflows usize (`checked_add`), when rounding up with `checked_next_power_of_two` overflows, or when `size_of::<T>() * new_cap` overflows (`checked_mul` in `layout_array`). `extend`/`collect` reserve the iterator's `size_hint` lower bound first, so an iterator reporting a huge lower bound triggers it too. A real allocation failure goes to `handle_alloc_error` instead. Fix the size computation (e.g. a bogus `additional` or `size_hint`), or call `try_reserve`/`try_grow`/`try_reserve_exact` and handle the error.")

case(id="arrayvec_extend_capacity_exceeded", crate="arrayvec", version="0.7.9", path="src/arrayvec.rs", line=1124,
 kind="`#[cold]` `#[track_caller]` helper behind the `Extend`/`FromIterator` trait impls",
 message="ArrayVec: capacity exceeded in extend/from_iter",
 must_mention=[["index == end","self.capacity()","`CAP`","CAP items","more than CAP","more elements than"],
               ["impl Extend","Extend::extend","extend(","collect","FromIterator"],
               ["track_caller"],
               ["try_extend_from_slice","remaining_capacity","take(","try_push"]],
 must_not_mention=["only in debug builds","the extra elements are dropped silently"],
 rationale="arrayvec.rs:1121-1125 `#[cold] #[track_caller] fn extend_panic`. Only caller: `extend_from_iter::<_, CHECK=true>` (:1136-1159) when `index == end` (`end = self.capacity()` = CAP) and the iterator yields another element; elements before that were already written (`WritebackGuard` keeps `len`, :1089-1101). Reached from `impl Extend for ArrayVec` (:1108-1118, `#[track_caller]`) and `impl FromIterator` (:1179-1187, `array.extend(iter)`; not `#[track_caller]`). `extend_from_slice` uses CHECK=false after clamping (:1163-1172). `try_extend_from_slice` (:607) returns `CapacityError`, `remaining_capacity` (:162).",
 reference="`extend_panic()` (arrayvec.rs:1121-1125) is a `#[cold]`, `#[track_caller]` helper called from `extend_from_iter` when the iterator yields an element after the vector is already at its fixed capacity `CAP` (`index == end`, where `end = self.capacity()`). Public entry points are `Extend::extend` on `ArrayVec<T, CAP>` and `FromIterator` (`iter.collect::<ArrayVec<_, CAP>>()`), which calls `extend`. The elements that fit have already been written, so the vector is full when the panic unwinds; the location points at your `extend` call thanks to `#[track_caller]`. Make sure the iterator yields at most `remaining_capacity()` items (e.g. `.take(v.remaining_capacity())`), use `try_extend_from_slice` for slices or `try_push` in a loop to get a `CapacityError` instead, or pick a larger `CAP`.")

case(id="bytes_buf_get_advance_oob", crate="bytes", version="1.12.2", path="src/lib.rs", line=208,
 kind="`#[cold]` panic helper called from default `Buf` trait methods (and a macro)",
 message="advance out of bounds: the len is {} but advancing by {}",
 must_mention=[["remaining()","remaining_mut","TryGetError"],
               ["get_u8","get_u16","get_u32","get_u64","get_i32","copy_to_slice","get_f32","put_u8","put_slice","get_uint"],
               ["default method","provided method","trait method","buf_get_impl","Buf trait","`Buf`"],
               ["try_get_","try_copy_to_slice"]],
 must_not_mention=["only in debug builds","the missing bytes are zero-filled"],
 rationale="lib.rs:204-211 `#[cold] fn panic_advance(&TryGetError)`. Callers: default `Buf::get_u8`/`get_i8` (buf/buf_impl.rs:321-330, `self.remaining() < 1`), `copy_to_slice` (:300-303, `try_copy_to_slice(..).unwrap_or_else(panic_advance)`), and every `get_u16..get_f64`/`get_uint` via `buf_get_impl!` (:72-85), which runs `buf_try_get_impl!` and maps its `TryGetError { requested, available }`. `BufMut::put_*`/`put_slice` use it when `remaining_mut()` is too small (buf/buf_mut.rs:207, :248, :294). The `try_get_*` methods (e.g. `try_get_u32`) return the `TryGetError` instead. Implementors like `&[u8]`, `Bytes`, `BytesMut`, `Cursor` inherit these default methods.",
 reference="`panic_advance` (lib.rs:204-211) is a `#[cold]` helper the `Buf` trait's default methods call when fewer bytes remain than a read needs: `get_u8` checks `self.remaining() < 1`, and `get_u16`/`get_u32`/`get_u64`/`get_f32`/`get_uint` etc. go through the `buf_get_impl!` macro, which runs the fallible reader and panics with the `TryGetError { requested, available }` it got; `copy_to_slice` does the same. `BufMut::put_*`/`put_slice` use it too when `remaining_mut()` is too small for a fixed-size buffer. So reading a u32 from a buffer with 3 bytes left, or parsing a truncated frame, panics here for any `Buf` (`&[u8]`, `Bytes`, `BytesMut`). Check `buf.remaining() >= n` before reading, or use the fallible `try_get_u32`/`try_get_u8`/`try_copy_to_slice` and treat the error as \"need more data\".")

case(id="serde_json_indexmut_array_oob", crate="serde_json", version="1.0.154", path="src/value/index.rs", line=73,
 kind="panic in `IndexMut` trait impl (read-only `Index` never panics)",
 message="cannot access index {} of JSON array of length {}",
 must_mention=[["get_mut","index_or_insert"],
               ["IndexMut","index_mut","] = "],
               ["returns `Null`","returns Null","Value::Null","`null`","JSON null"],
               ["push(","as_array_mut","get_mut("]],
 must_not_mention=["only in debug builds","the array is extended"],
 rationale="value/index.rs:67-80 `impl Index for usize`, `index_or_insert`: on `Value::Array`, `vec.get_mut(*self)` `None` panics with this text (:71-76); other types panic with \"cannot access index {} of JSON {}\" (:78). Only caller `impl IndexMut<I> for Value::index_mut` (:243-257 doc, :255-257), i.e. `value[i] = ...` or `&mut value[i]`. Read-only `impl ops::Index` (:206-210) uses `index_into` and returns `&NULL` on a miss, so `value[5]` reading never panics. The array is not grown; `get_mut(i)` returns `Option`, `as_array_mut().push` appends.",
 reference="This comes from `index_or_insert` for `usize` (value/index.rs:67-80), which backs `impl IndexMut for serde_json::Value`: writing `value[i] = json!(..)` or taking `&mut value[i]` on a JSON array with `i >= len` panics because `vec.get_mut(i)` is `None`. Unlike object keys (which are inserted), an array is never extended by indexing. Reading with `value[i]` goes through the `Index` impl, which returns `Value::Null` for a missing index instead of panicking, which is why only the mutable form fails. Use `value.get_mut(i)` and handle `None`, or append with `value.as_array_mut().unwrap().push(..)` (or resize the array first).")

case(id="slotmap_invalid_key_index", crate="slotmap", version="1.1.1", path="src/basic.rs", line=1001,
 kind="panic in `Index` trait impl",
 message="invalid SlotMap key used",
 must_mention=[["version","removed","stale"],
               ["Index","sm[key]","map[key]","[key]"],
               ["self.get(","get(key)","`get` returns `None`","get returns None"],
               ["contains_key","get(key)","`get`"]],
 must_not_mention=["only in debug builds","out of memory"],
 rationale="basic.rs:994-1003 `impl Index<K> for SlotMap` panics when `self.get(key)` is `None` (also `IndexMut`, :1005-1012, same text). `get` (:656-662) filters `slot.version == kd.version.get()`: a key whose value was `remove`d (or `retain`ed away / `drain`ed) has an older version even if the slot was reused, an index beyond `slots.len()` (a key from another SlotMap, `KeyData` forged, or `Key::null()`) fails `slots.get`. `get`/`get_mut`/`contains_key` are the non-panicking forms. DenseSlotMap/HopSlotMap have their own copies.",
 reference="`SlotMap`'s `Index` and `IndexMut` impls (basic.rs:994-1012) call `self.get(key)` and panic with this text when it returns `None`. `get` checks that the slot exists and that its version matches the key's version, so `sm[key]` fails when the key's value was already removed (the version was bumped, even if a new value now sits in the same slot: the old key is stale), when the key comes from a different SlotMap, or when it is `KeyData`/`Key::null()`. Use `sm.get(key)`/`get_mut(key)` and handle `None`, check `contains_key(key)` first, or remove stale keys from wherever you store them when you call `remove`.")

case(id="time_date_add_overflow", crate="time", version="0.3.55", path="src/date.rs", line=1671,
 kind="`expect` in `#[track_caller]` operator impl (`Add<Duration> for Date`), range depends on a feature",
 message="overflow adding duration to date",
 must_mention=[["checked_add"],
               ["Date +","date +","+ Duration","Add<","+=","AddAssign"],
               ["9999","MAX_YEAR","Date::MAX","large-dates"],
               ["track_caller"]],
 must_not_mention=["only in debug builds","wraps around"],
 rationale="date.rs:1661-1673 `impl Add<SignedDuration> for Date` (`Duration` is an alias, lib.rs:172) `#[track_caller]`, `self.checked_add(duration).expect(..)`; same text for `Add<StdDuration>` (:1675-1687). `AddAssign` forwards (:1689-1697). `checked_add` (:834-860) returns `None` when whole days exceed i32 or `from_julian_day` fails, i.e. the result is outside `Date::MIN..=Date::MAX` (:80-87), years `MIN_YEAR..=MAX_YEAR` = -9999..=9999, or ±999_999 with feature `large-dates` (:33-43). Fallible forms: `checked_add`, `saturating_add`.",
 reference="`impl Add<Duration> for Date` (date.rs:1661-1673, also `Add<std::time::Duration>` and `+=`) is `self.checked_add(duration).expect(..)` and is `#[track_caller]`, so the panic points at your `date + duration`. `checked_add` returns `None` when the resulting date is outside the supported range `Date::MIN..=Date::MAX`, i.e. years -9999..=9999 by default (`MAX_YEAR`), or ±999,999 with the `large-dates` feature; e.g. `Date::MAX + Duration::days(1)` or adding a huge, often uninitialised or unit-confused duration. It panics in release builds too. Use `date.checked_add(d)` (returns `Option`) or `saturating_add`, validate the duration, or enable `large-dates` if you really need far dates.")

case(id="ndarray_index_oob_release", crate="ndarray", version="0.17.2", path="src/arraytraits.rs", line=36,
 kind="`#[cold]` helper behind `Index`/`IndexMut`; in debug builds another panic comes first",
 message="ndarray: index out of bounds",
 must_mention=[["index_checked"],
               ["Index","IndexMut","a[[","arr[[","[[i, j]]","[[i,j]]"],
               ["debug_assertions","release","debug build"],
               ["get(","get_mut("]],
 must_not_mention=["only in debug builds","wraps around"],
 rationale="arraytraits.rs:32-37 `#[cold] fn array_out_of_bounds`. Callers: `impl Index<I> for ArrayRef` (:53-71) and `IndexMut` (:75-93) when `index.index_checked(dim, strides)` is `None`; `ArrayBase` Index forwards (:98-110); `IndexLonger::index` on views (impl_views/indexing.rs:126, :180). Each first runs `debug_bounds_check_ref!`, which under `cfg(debug_assertions)` panics with \"ndarray: index {:?} is out of bounds for array of shape {:?}\" (macro_utils.rs:80-90) and is empty otherwise (:92-95): this short text appears in release builds (or with debug assertions off). `get`/`get_mut` return `Option`.",
 reference="`array_out_of_bounds()` (arraytraits.rs:32-37) is the `#[cold]` panic used by ndarray's `Index`/`IndexMut` impls (`a[[i, j]]`, `a[i]` on 1-D, and `IndexLonger::index` on views) when `index.index_checked(dim, strides)` finds an index component `>=` the axis length (or a wrong number of indices for a dynamic-dimension array). In debug builds (`debug_assertions`) the `debug_bounds_check_ref!` check runs first and panics with the longer message naming the index and the shape, so this short text is what you see in a release build. Check the shape (`a.shape()`, `a.dim()`) against your loop bounds, remember indices are zero-based and axis order is row-major by default, or use `a.get([i, j])`/`get_mut` which return `Option`.")

case(id="http_headervalue_from_static_invalid", crate="http", version="1.6.0", path="src/header/value.rs", line=66,
 kind="`panic!` in a `const fn` (compile error in const context)",
 message="HeaderValue::from_static with invalid bytes",
 must_mention=[["is_valid_ascii","32","visible ASCII","\\t","tab"],
               ["from_static"],
               ["const fn","const context","compile time","compile-time","at compile"],
               ["from_str","try_from","from_bytes","HeaderValue::try_from","from_maybe_shared"]],
 must_not_mention=["only in debug builds","invalid characters are stripped"],
 rationale="header/value.rs:61-75 `pub const fn from_static` loops over the bytes and panics when `!is_valid_ascii(b)`; `is_valid_ascii` (:543-545) is `b >= 32 && b < 127 || b == b'\\t'`, so CR/LF, other control bytes, DEL and any non-ASCII UTF-8 byte (e.g. `é`) fail. Doc `# Panics` (:48-51). As a `const fn`, calling it in a `const`/`static` turns the panic into a compile error; otherwise it panics at run time. Fallible: `HeaderValue::from_str` (same visible-ASCII rule), `from_bytes` (allows 128-255 opaque octets), `TryFrom<&str>/<String>`.",
 reference="`HeaderValue::from_static` (header/value.rs:61-75) is a `const fn` that checks every byte with `is_valid_ascii` (visible ASCII 32-126 plus tab) and panics on the first other byte: CR/LF (`\\r\\n`), other control characters, DEL, or non-ASCII UTF-8 such as `é`. Used in a `const`/`static` initializer the panic becomes a compile-time error; in normal code it panics at run time. It exists for literals known to be valid. For dynamic or possibly non-ASCII values use `HeaderValue::from_str` / `HeaderValue::try_from(..)` and handle the error, or `HeaderValue::from_bytes` for opaque bytes 128-255 (it still rejects control characters), and percent-encode or RFC 8187-encode text that is not ASCII.")

case(id="base64_decode_slice_unchecked_too_small", crate="base64", version="0.23.1", path="src/engine/mod.rs", line=445,
 kind="`panic!` in a default (provided) method of a public trait",
 message="Output slice is too small",
 must_mention=[["OutputSliceTooSmall"],
               ["decode_slice_unchecked"],
               ["default method","provided method","trait method","`Engine` trait","Engine trait"],
               ["decode_slice(","decoded_len_estimate","`decode_slice`"]],
 must_not_mention=["only in debug builds","when encoding"],
 rationale="engine/mod.rs:414-449 `fn decode_slice_unchecked` is a provided method of `pub trait Engine` (doc `# Panics`: output buffer too small, :429-431); its inner fn maps `DecodeSliceError::OutputSliceTooSmall` from `internal_decode` to this panic (:442-446) and passes `DecodeError` through. `Engine::decode_slice` (just above, ~:385-410) returns `DecodeSliceError` instead. Buffer size: `base64::decoded_len_estimate` (decode.rs:189-193). All engines (`STANDARD`, `URL_SAFE`, `GeneralPurpose`) inherit it.",
 reference="`Engine::decode_slice_unchecked` is a default (provided) method of the `Engine` trait (engine/mod.rs:414-449), so every engine such as `general_purpose::STANDARD` has it. It decodes into a caller-supplied `&mut [u8]` and panics when the engine reports `DecodeSliceError::OutputSliceTooSmall`, i.e. the slice is shorter than the decoded data (roughly 3 bytes per 4 input characters). Invalid base64 is still returned as `Err(DecodeError)`. Size the buffer with `base64::decoded_len_estimate(input.len())`, or call `decode_slice(..)`, which returns the too-small case as an error instead of panicking, or use `decode()` to get a `Vec`.")

case(id="uuid_from_slice_length", crate="uuid", version="1.29.3", path="src/error.rs", line=182,
 kind="Display arm of a private error kind returned by public fns",
 message="invalid length: expected 16 bytes, found {}",
 must_mention=[["b.len() != 16","len() != 16","exactly 16","16 bytes"],
               ["from_slice"],
               ["ParseByteLength"],
               ["parse_str","from_bytes","try_parse","Uuid::parse"]],
 must_not_mention=["only in debug builds","at least 16 bytes"],
 rationale="error.rs:181-183 Display of `ErrorKind::ParseByteLength { len }`. Built only in `Uuid::from_slice` (builder.rs:288-290) and `Uuid::from_slice_le` (:329-331) when `b.len() != 16`; `Builder::from_slice`/`from_slice_le` forward with `?` (:638, :673) and `TryFrom<Vec<u8>>` calls `from_slice` (lib.rs:984). Common cause: the bytes of the 36-char text form (`s.as_bytes()`, found 36) or a 32-char hex string. Text: `Uuid::parse_str`/`try_parse`; fixed array: `from_bytes`.",
 reference="`ErrorKind::ParseByteLength` (error.rs:181-183) is returned by `Uuid::from_slice` and `Uuid::from_slice_le` (builder.rs:288-290, :329-331), and through them `Builder::from_slice` and `Uuid::try_from(Vec<u8>)`, whenever the slice length is not exactly 16 bytes (`b.len() != 16`); longer slices fail too, nothing is truncated. The most common cause is passing the textual UUID's bytes (`\"67e55044-...\".as_bytes()`, found 36) or hex text (found 32). For text use `Uuid::parse_str`/`Uuid::try_parse`; for raw bytes pass exactly 16 (e.g. `Uuid::from_bytes([u8; 16])`, or slice the right 16-byte window from your buffer).")

case(id="url_relative_without_base", crate="url", version="2.5.9", path="src/parser.rs", line=94,
 kind="Display arm of an error enum generated by `macro_rules!`",
 message="relative URL without a base",
 must_mention=[["parse_scheme","scheme"],
               ["Url::parse","parse::<Url>","from_str"],
               ["simple_enum_error","RelativeUrlWithoutBase"],
               ["join","base_url","https://"]],
 must_not_mention=["only in debug builds","DNS"],
 rationale="parser.rs:49-73 `simple_enum_error!` generates `ParseError` and its Display; :94 `RelativeUrlWithoutBase => \"relative URL without a base\"`. Returned only from `Parser::parse_url` (:374-397) when `parse_scheme` (:399-423) fails (input does not start with ASCII alpha followed by scheme chars and `:`) and `self.base_url` is `None`. `Url::parse` (lib.rs:340) uses no base; `ParseOptions::base_url` (:265) and `Url::join` (:470) supply one. Inputs like `example.com/x`, `/path`, `../main.css` (doc, lib.rs:100), `//host` fail.",
 reference="`ParseError::RelativeUrlWithoutBase` (its Display text comes from the `simple_enum_error!` macro, parser.rs:49-94) is returned by `Url::parse` (and `str::parse::<Url>`/`Url::from_str`) when the input has no scheme: `parse_scheme` finds no leading `letters:` prefix, and no base URL was given, so the parser cannot resolve a relative reference. Typical inputs: `example.com/path`, `www.example.com`, `/api/v1`, `../main.css`, `//cdn.host/x`. Add the scheme (`https://example.com/path`), or resolve the relative part against a base with `base.join(\"/api/v1\")` or `Url::options().base_url(Some(&base)).parse(..)`.")

case(id="hex_odd_length", crate="hex", version="0.4.3", path="src/error.rs", line=29,
 kind="Display arm of a public error enum",
 message="Odd number of digits",
 must_mention=[["% 2","odd length","odd number","OddLength"],
               ["hex::decode","decode(","from_hex","decode_to_slice"],
               ["FromHexError"],
               ["trim","leading \"0\"","leading '0'","leading 0","pad","0x"]],
 must_not_mention=["only in debug builds","ignores the last"],
 rationale="error.rs:29 Display of `FromHexError::OddLength`. Returned when `len() % 2 != 0` by `impl FromHex for Vec<u8>` (lib.rs:191-195, used by `hex::decode`, :295-300), `decode_to_slice` (:313-317, checked before `InvalidStringLength`) and the `[u8; N]` `FromHex` impls. The length check comes before character validation, so `\"123\"` or text with a trailing newline or an odd number of chars gets this error even if other chars are invalid. `0x` prefix is not accepted.",
 reference="`FromHexError::OddLength` is returned by `hex::decode`, `FromHex::from_hex` (for `Vec<u8>` and `[u8; N]`) and `hex::decode_to_slice` when the input length is odd (`len() % 2 != 0`): every byte needs exactly two hex digits, and this check runs before any character is validated. Common causes: a trailing newline or space from a file or stdin, a leading `0x` prefix plus odd digits, or a number formatted without zero padding (`format!(\"{:x}\", 5)` gives `\"5\"`). `trim()` the input, strip a `0x` prefix, and pad to an even length with a leading 0 (or format with `{:02x}`).")

case(id="bitvec_index_oob", crate="bit-vec", version="0.10.2", path="src/lib.rs", line=399,
 kind="`expect` in an `Index` trait impl",
 message="index out of bounds",
 must_mention=[["nbits","i >= ","len()"],
               ["Index","bv[","bits[","[i]"],
               ["get(i)","`get`","get returns None","get` returns `None","Option"],
               ["grow","push(","get("]],
 must_not_mention=["only in debug builds","grows automatically"],
 rationale="lib.rs:393-405 `impl Index<usize> for BitVec<B>`: `self.get(i).expect(\"index out of bounds\")`. `get` (:774-784) returns `None` when `i >= self.nbits` (the length, not the storage capacity). There is no `IndexMut` (writes use `set`, which asserts with its own text \"index out of bounds: {:?} >= {:?}\", :889-895). `BitVec::from_elem`, `grow`, `push` change the length.",
 reference="`BitVec` implements `Index<usize>` (lib.rs:393-405) as `self.get(i).expect(\"index out of bounds\")`, so `bv[i]` panics when `get` returns `None`, i.e. when `i >= bv.len()` (the `nbits` length, not the capacity of the storage blocks; a `BitVec::with_capacity(n)` still has length 0). Indexing never grows the vector. Create it with the right length (`BitVec::from_elem(n, false)`), extend it with `grow(n, false)` or `push`, or use `bv.get(i)`, which returns an `Option<bool>`. Writing goes through `set(i, x)`, which asserts the same bound with its own message.")

case(id="crossbeam_arrayqueue_zero_capacity", crate="crossbeam-queue", version="0.3.14", path="src/array_queue.rs", line=111,
 kind="`assert!` on a documented constructor precondition",
 message="capacity must be non-zero",
 must_mention=[["cap > 0","cap == 0","capacity of 0","capacity 0","zero capacity","new(0)"],
               ["ArrayQueue::new"],
               ["assert!","# Panics","documented"],
               ["SegQueue","new(1)","at least 1","at least one"]],
 must_not_mention=["only in debug builds","try_new"],
 rationale="array_queue.rs:96-111 `ArrayQueue::new(cap)` doc `# Panics`: capacity zero or too large; first line `assert!(cap > 0, ..)`. No fallible constructor exists. A cap computed from config or `num_cpus - 1` etc. can be 0. `SegQueue` (seg_queue.rs) is the unbounded alternative. The other precondition (\"queue capacity is too large\", :131-134) is a separate expect.",
 reference="`ArrayQueue::new(cap)` (array_queue.rs:96-111) starts with `assert!(cap > 0, \"capacity must be non-zero\")`, as its `# Panics` doc says: a bounded lock-free queue needs at least one slot, and there is no zero-capacity (rendezvous) mode and no fallible constructor. It usually fires when the capacity comes from configuration or arithmetic that can be 0 (an empty input, `n - 1`, a default of 0). Clamp it to at least 1 (`ArrayQueue::new(cap.max(1))`), validate the setting, or use `SegQueue` if you want an unbounded queue.")

case(id="crossbeam_utils_scoped_spawn_failed", crate="crossbeam-utils", version="0.8.23", path="src/thread.rs", line=273,
 kind="`expect` on an `io::Error` from the OS",
 message="failed to spawn scoped thread",
 must_mention=[["io::Error","io::Result","OS","operating system"],
               ["Scope::spawn","s.spawn","scope.spawn",".spawn("],
               ["builder()","ScopedThreadBuilder","Builder::spawn"],
               ["ulimit","too many threads","stack_size","resource","memory"]],
 must_not_mention=["only in debug builds","the closure panicked"],
 rationale="thread.rs:265-274 `Scope::spawn` = `self.builder().spawn(f).expect(\"failed to spawn scoped thread\")`. `ScopedThreadBuilder::spawn` (:430-480) returns `io::Result` and propagates the `io::Error` from `std::thread::Builder::spawn` (`self.builder.spawn(closure)?`, :460): the OS refused to create a thread (EAGAIN: process/thread limit `ulimit -u`, `threads-max`, cgroup pids limit; ENOMEM for the stack). A panic inside the closure is reported by `join`/`scope` result instead, not here. `s.builder().stack_size(..).spawn(..)` returns the error.",
 reference="`Scope::spawn` (thread.rs:265-274, used inside `crossbeam::scope(|s| s.spawn(..))`) is `self.builder().spawn(f).expect(..)`: `ScopedThreadBuilder::spawn` returns an `io::Result`, and the `io::Error` comes from `std::thread::Builder::spawn` when the operating system refuses to create a thread (EAGAIN / \"Resource temporarily unavailable\": too many threads for `ulimit -u`, a container pids limit, or not enough memory for the thread stack). It has nothing to do with what the closure does. Spawn fewer threads (use a pool or chunk the work), raise the limit, reduce `stack_size`, or call `s.builder().spawn(..)` and handle the `io::Error` yourself. Note that `std::thread::scope` is the std replacement.")

case(id="either_unwrap_left_on_right", crate="either", version="1.19.0", path="src/lib.rs", line=1085,
 kind="`panic!` in a `#[track_caller]` method",
 message="called `Either::unwrap_left()` on a `Right` value: {:?}",
 must_mention=[["Either::Right(","Right(r)","Right(..)","Right(_)"],
               ["unwrap_left"],
               ["track_caller"],
               [".left()","`left()`","left_or","either(","map_left","is_left"," match "]],
 must_not_mention=["only in debug builds","returns `None`"],
 rationale="lib.rs:1068-1088 `#[track_caller] pub fn unwrap_left(self) -> L where R: Debug`, documented `# Panics` when `Right`; the `{:?}` is the right value. The location is the caller. Non-panicking: `left()` -> `Option<L>`, `left_or`, `left_or_else`, `either`, `match`. Twin `unwrap_right` (:1116), `expect_left` (:1146).",
 reference="`Either::unwrap_left` (lib.rs:1068-1088) returns the `Left` value and panics when the value is `Either::Right(r)`, printing `r` with `Debug`. It is `#[track_caller]`, so the reported location is your call, not the either crate. It means the code assumed the left branch but got `Right`, e.g. an iterator adapter or `Either`-returning function took the other path. Use `match`, `e.left()` (an `Option`), `left_or(default)`/`left_or_else`, or `either(f, g)` to handle both sides; `is_left()` checks first.")

case(id="num_integer_sqrt_negative", crate="num-integer", version="0.1.47", path="src/roots.rs", line=147,
 kind="`assert!` in a trait impl generated by `macro_rules!`",
 message="the square root of a negative is imaginary",
 must_mention=[["*self >= 0","self >= 0","x < 0","< 0"],
               ["sqrt"],
               ["signed_roots","impl Roots","Roots::sqrt","Roots` trait","Roots trait","trait `Roots`"],
               ["unsigned_abs","cbrt","checked","abs()","if x >= 0","x < 0"]],
 must_not_mention=["only in debug builds","returns NaN"],
 rationale="roots.rs:132-168 `signed_roots!` generates `impl Roots for i8/i16/i32/i64/i128/isize`; `sqrt` asserts `*self >= 0` (:147) then computes the unsigned root. Reached by `Roots::sqrt` (`x.sqrt()` with the trait in scope) and the free `num_integer::sqrt` (:114-116). Negative `nth_root(n)` with even n fails the other assert (:140); `cbrt` accepts negatives (:152-158). No fallible form; check the sign or use `unsigned_abs()`.",
 reference="The `signed_roots!` macro (roots.rs:132-168) implements `num_integer::Roots` for `i8`..`i128`/`isize`, and its `sqrt` begins with `assert!(*self >= 0, ..)`: calling `x.sqrt()` (trait `Roots` in scope) or `num_integer::sqrt(x)` on a negative signed integer panics, in release builds as well, since an integer square root of a negative number does not exist (there is no NaN for integers). `nth_root` with an even degree has the same rule (its own message), while `cbrt` accepts negatives. Check `if x >= 0` before calling, work on `x.unsigned_abs()` if the magnitude is what you want, or handle `x < 0` as an error.")

case(id="serde_json_recursion_limit", crate="serde_json", version="1.0.154", path="src/error.rs", line=384,
 kind="Display arm of a private error code raised by a macro; limit is a constant, feature-gated escape",
 message="recursion limit exceeded",
 must_mention=[["remaining_depth","128"],
               ["from_str","from_slice","from_reader","Deserializer"],
               ["check_recursion","unbounded_depth"],
               ["disable_recursion_limit","serde_stacker"]],
 must_not_mention=["only in debug builds","when serializing"],
 rationale="error.rs:384 Display of `ErrorCode::RecursionLimitExceeded` (category Syntax, :80). Raised by `check_recursion!` (de.rs:1372-1387): `remaining_depth` (initialised to 128, de.rs:63) is decremented on each nested array/object/enum (:1434, :1445, :1750...) and errors at 0, so nesting of 128 levels fails. With feature `unbounded_depth` (de.rs:1363-1370) `Deserializer::disable_recursion_limit` (:213-217) turns it off; the doc recommends `serde_stacker` to avoid stack overflow. Reached from `serde_json::from_str`/`from_slice`/`from_reader`/`Deserializer`. Serializing has no limit.",
 reference="`ErrorCode::RecursionLimitExceeded` is returned by serde_json's deserializer (`serde_json::from_str`, `from_slice`, `from_reader`, `Deserializer`) when JSON arrays/objects are nested too deeply: the `check_recursion!` macro decrements `remaining_depth`, which starts at 128, for every nested level and fails when it reaches 0. The limit protects against stack overflow on hostile input. If you must accept deeper documents, enable the `unbounded_depth` feature, call `deserializer.disable_recursion_limit()` on a `serde_json::Deserializer`, and wrap it in `serde_stacker::Deserializer` so the stack can grow; otherwise reject or flatten the input.")

case(id="bytesmut_split_off_capacity", crate="bytes", version="1.12.2", path="src/bytes_mut.rs", line=336,
 kind="`assert!` with values on a documented precondition (bound is capacity, not length)",
 message="split_off out of bounds: {:?} <= {:?}",
 must_mention=[["at <= self.capacity()","capacity()","capacity"],
               ["BytesMut::split_off","split_off("],
               ["assert!","# Panics"],
               ["split_to","truncate","reserve","at <= "]],
 must_not_mention=["only in debug builds","at > len"],
 rationale="bytes_mut.rs:304-348 `BytesMut::split_off(at)` doc `# Panics` if `at > capacity`; `assert!(at <= self.capacity(), \"split_off out of bounds: {:?} <= {:?}\", at, self.capacity())` (:334-339). For `len < at <= capacity` it does not panic: `self.len = min(len, at)` and the returned half is empty with the spare capacity. The message prints the violated relation `at <= capacity`. `Bytes::split_off` (bytes.rs:470-490) has the same text but checks `at <= self.len()`.",
 reference="`BytesMut::split_off(at)` (bytes_mut.rs:304-348) asserts `at <= self.capacity()` (`assert!`, documented under `# Panics`) and panics with this text otherwise; the message shows the required relation, with `at` first and the capacity second. Note the bound is the capacity, not the length: `at` between `len()` and `capacity()` does not panic and returns an empty `BytesMut` holding the spare capacity. `Bytes::split_off` has the same message but bounds `at` by the length. Clamp or check `at` first, `reserve` if you need more room, or use `split_to`/`truncate` depending on which half you want to keep.")

case(id="arrayvec_capacity_limit_u32", crate="arrayvec", version="0.7.9", path="src/lib.rs", line=42,
 kind="`panic!` inside `macro_rules!`, cfg-selected text, `#[track_caller]` constructor; const variant is a compile error",
 message="ArrayVec: largest supported capacity is u32::MAX",
 must_mention=[["LenUint","CAP >","CAP>","> u32::MAX"],
               ["ArrayVec::new","ArrayString::new","::new()"],
               ["assert_capacity_limit","target_pointer_width","64-bit"],
               ["`Vec`","Vec<T>","heap Vec","new_const","smaller CAP","Box<[","heap"]],
 must_not_mention=["only in debug builds","on 32-bit targets only"],
 rationale="lib.rs:30-48: `LenUint` is `u32` unless `target_pointer_width = \"16\"` (then `u16`, with the u16::MAX text at :44). `assert_capacity_limit!` panics when `size_of::<usize>() > size_of::<LenUint>()` (true on 64-bit) and `$cap > LenUint::MAX`. Used by `#[track_caller] ArrayVec::new` (arrayvec.rs:84-90) and `ArrayString::new` (array_string.rs:66, :146 `zero_filled`). `new_const` uses `assert_capacity_limit_const!` (lib.rs:50-58, :102), an out-of-range array index that fails at compile time. On 32-bit usize == u32 so the check is skipped. A CAP that large is a >4 GiB inline array anyway; use `Vec`.",
 reference="`assert_capacity_limit!` (lib.rs:37-48) stores lengths as `LenUint`, which is `u32` (u16 on 16-bit targets), so on 64-bit targets (`target_pointer_width` larger than the length type) `ArrayVec::new()` and `ArrayString::new()` panic when the const generic `CAP > u32::MAX`. `new` is `#[track_caller]`, so the location is your constructor call. `ArrayVec::new_const` has a const version of the check that fails at compile time instead. A capacity that large means a multi-gigabyte inline array, so use a heap `Vec` (or a smaller CAP) instead.")

for c in C:
    assert 3<=len(c["must_mention"])<=5 and len(c["must_not_mention"])==2
def passes(case, text):
    t = text.lower()
    return (all(any(a.lower() in t for a in g) for g in case["must_mention"])
            and not any(b.lower() in t for b in case["must_not_mention"]))
ok=True
for c in C:
    if not passes(c,c["reference"]):
        ok=False
        t=c["reference"].lower()
        print("REF FAIL",c["id"],[g for g in c["must_mention"] if not any(a.lower() in t for a in g)],[b for b in c["must_not_mention"] if b.lower() in t])
    # message only
    m=(c["message"]+" "+c["path"]+":"+str(c["line"])).lower()
    hit=sum(any(a.lower() in m for a in g) for g in c["must_mention"])
    if hit>1: print("MSG HITS",c["id"],hit)
    for d in C:
        if d is not c and passes(d,c["reference"]): print("CROSS",c["id"],"passes",d["id"])
print(len(C), len({c['crate'] for c in C}), "crates")
with open("cases.jsonl","w") as f:
    for c in C: f.write(json.dumps(c, ensure_ascii=False)+"\n")
