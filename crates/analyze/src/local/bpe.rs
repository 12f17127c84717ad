//! Byte-level BPE (GPT-2 style) built from a GGUF file's own vocabulary
//! and merges (`tokenizer.ggml.tokens`, `tokenizer.ggml.merges`), with the
//! chat template's special tokens kept whole.

use std::collections::HashMap;

/// A byte-level BPE tokenizer.
pub struct Bpe {
    vocab: HashMap<String, u32>,
    tokens: Vec<String>,
    ranks: HashMap<(String, String), usize>,
    specials: Vec<(String, u32)>,
    byte_to_char: [char; 256],
    char_to_byte: HashMap<char, u8>,
}

/// GPT-2's map of bytes to printable characters.
fn byte_chars() -> [char; 256] {
    let mut out = ['\0'; 256];
    let mut n = 0u32;
    for b in 0..256u32 {
        let printable =
            (33..=126).contains(&b) || (161..=172).contains(&b) || (174..=255).contains(&b);
        out[b as usize] = if printable {
            char::from_u32(b).unwrap()
        } else {
            n += 1;
            char::from_u32(255 + n).unwrap()
        };
    }
    out
}

impl Bpe {
    /// From the vocabulary, the merges (`"a b"`), and the special tokens to
    /// keep whole (those of the vocabulary that look like `<|…|>`).
    pub fn new(tokens: Vec<String>, merges: &[String]) -> Self {
        let vocab: HashMap<String, u32> = tokens
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as u32))
            .collect();
        let ranks = merges
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                let (a, b) = m.split_once(' ')?;
                Some(((a.to_string(), b.to_string()), i))
            })
            .collect();
        let mut specials: Vec<(String, u32)> = tokens
            .iter()
            .enumerate()
            .filter(|(_, t)| t.starts_with("<|") && t.ends_with("|>"))
            .map(|(i, t)| (t.clone(), i as u32))
            .collect();
        specials.sort_by_key(|(t, _)| std::cmp::Reverse(t.len()));
        let byte_to_char = byte_chars();
        let char_to_byte = byte_to_char
            .iter()
            .enumerate()
            .map(|(b, c)| (*c, b as u8))
            .collect();
        Bpe {
            vocab,
            tokens,
            ranks,
            specials,
            byte_to_char,
            char_to_byte,
        }
    }

    /// The id of a token, if the vocabulary has it.
    pub fn id(&self, token: &str) -> Option<u32> {
        self.vocab.get(token).copied()
    }

    /// Encodes text; special tokens in it are single ids.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let next = self
                .specials
                .iter()
                .filter_map(|(s, id)| rest.find(s.as_str()).map(|i| (i, s, *id)))
                .min_by_key(|(i, s, _)| (*i, std::cmp::Reverse(s.len())));
            match next {
                Some((i, s, id)) => {
                    self.encode_plain(&rest[..i], &mut out);
                    out.push(id);
                    rest = &rest[i + s.len()..];
                }
                None => {
                    self.encode_plain(rest, &mut out);
                    break;
                }
            }
        }
        out
    }

    fn encode_plain(&self, text: &str, out: &mut Vec<u32>) {
        for piece in pre_tokenize(text) {
            let mapped: Vec<String> = piece
                .bytes()
                .map(|b| self.byte_to_char[b as usize].to_string())
                .collect();
            for t in self.merge(mapped) {
                match self.vocab.get(&t) {
                    Some(id) => out.push(*id),
                    // Every byte is in a byte-level vocabulary; fall back
                    // to single characters all the same.
                    None => {
                        for c in t.chars() {
                            if let Some(id) = self.vocab.get(&c.to_string()) {
                                out.push(*id);
                            }
                        }
                    }
                }
            }
        }
    }

    fn merge(&self, mut parts: Vec<String>) -> Vec<String> {
        loop {
            let best = parts
                .windows(2)
                .enumerate()
                .filter_map(|(i, w)| {
                    self.ranks
                        .get(&(w[0].clone(), w[1].clone()))
                        .map(|r| (*r, i))
                })
                .min();
            let Some((_, i)) = best else { return parts };
            let joined = format!("{}{}", parts[i], parts[i + 1]);
            parts.splice(i..i + 2, [joined]);
        }
    }

    /// Decodes ids to text (special tokens as written).
    pub fn decode(&self, ids: &[u32]) -> String {
        let mut bytes = Vec::new();
        for id in ids {
            let Some(t) = self.tokens.get(*id as usize) else {
                continue;
            };
            if self.specials.iter().any(|(s, _)| s == t) {
                bytes.extend_from_slice(t.as_bytes());
                continue;
            }
            for c in t.chars() {
                match self.char_to_byte.get(&c) {
                    Some(b) => bytes.push(*b),
                    None => bytes.extend_from_slice(c.to_string().as_bytes()),
                }
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// GPT-2's pre-tokenization, by hand, after SmolLM's digit split:
/// contractions, ` ?letters`, single digits, ` ?other symbols`, and runs of
/// whitespace (a run before a word leaves its last space to the word).
fn pre_tokenize(text: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let end_of = |i: usize| chars.get(i).map_or(text.len(), |(b, _)| *b);
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        let c = chars[i].1;
        if c == '\'' {
            let rest = &text[chars[i].0..];
            if let Some(k) = ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d"]
                .iter()
                .find(|k| rest.starts_with(**k))
            {
                i += k.chars().count();
                out.push(&text[chars[start].0..end_of(i)]);
                continue;
            }
        }
        // Digits are split one by one before the byte-level regex (SmolLM's
        // `Digits` pre-tokenizer), so a space never leads a digit.
        let lead_space = c == ' '
            && chars
                .get(i + 1)
                .is_some_and(|(_, n)| !n.is_whitespace() && !n.is_numeric());
        let j = if lead_space { i + 1 } else { i };
        let d = chars[j].1;
        if d.is_alphabetic() {
            i = j;
            while i < chars.len() && chars[i].1.is_alphabetic() {
                i += 1;
            }
        } else if d.is_numeric() {
            i = j + 1;
        } else if !d.is_whitespace() {
            i = j;
            while i < chars.len() && !chars[i].1.is_whitespace() && !chars[i].1.is_alphanumeric() {
                i += 1;
            }
        } else {
            // Whitespace run; leave the last space to a following word.
            while i < chars.len() && chars[i].1.is_whitespace() {
                i += 1;
            }
            if i < chars.len() && i - start > 1 && chars[i - 1].1 == ' ' {
                i -= 1;
            }
        }
        out.push(&text[chars[start].0..end_of(i)]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_and_round_trips() {
        // A toy vocabulary: every byte used, two merges.
        let chars = byte_chars();
        let mut tokens: Vec<String> = chars.iter().map(|c| c.to_string()).collect();
        tokens.push("he".into());
        tokens.push("hel".into());
        tokens.push("<|im_end|>".into());
        let bpe = Bpe::new(tokens, &["h e".to_string(), "he l".to_string()]);
        let ids = bpe.encode("hello<|im_end|> wörld\n\n  it's 42");
        assert_eq!(ids[0], 257, "`hel` merged");
        assert!(ids.contains(&258), "the special token is one id");
        assert_eq!(bpe.decode(&ids), "hello<|im_end|> wörld\n\n  it's 42");
    }

    #[test]
    fn pre_tokenizes_like_gpt2() {
        assert_eq!(
            pre_tokenize("it's a test 42!  ok"),
            ["it", "'s", " a", " test", " ", "4", "2", "!", " ", " ok"]
        );
    }
}
