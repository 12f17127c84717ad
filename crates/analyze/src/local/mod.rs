//! A GGUF model run in-process on the CPU with candle (`--llm
//! local:PATH.gguf`; llama-family architectures through
//! `quantized_llama`). The tokenizer is built from the file's own
//! vocabulary and merges ([`bpe`]) and checked to round-trip the prompt;
//! Q4_1 weights (no fast kernel) are re-quantized once to Q8_0 and cached
//! next to errdex's other caches. Decoding is greedy.

pub mod bpe;

use crate::ModelError;
use candle_core::quantized::{gguf_file, GgmlDType, QTensor};
use candle_core::{Device, Tensor};
use candle_transformers::models::quantized_llama::ModelWeights;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Positions candle's `quantized_llama` supports.
const QUANTIZED_LLAMA_MAX_SEQ: usize = 4096;

/// A local model, loaded on first use.
pub struct Local {
    path: PathBuf,
    loaded: Mutex<Option<Loaded>>,
}

struct Loaded {
    model: ModelWeights,
    bpe: bpe::Bpe,
    end: u32,
    context: usize,
}

impl std::fmt::Debug for Local {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Local({})", self.path.display())
    }
}

fn strings(c: &gguf_file::Content, key: &str) -> Vec<String> {
    match c.metadata.get(key) {
        Some(gguf_file::Value::Array(a)) => a
            .iter()
            .filter_map(|v| match v {
                gguf_file::Value::String(s) => Some(s.clone()),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Where the Q8_0 copy of a Q4_1 file is kept: keyed by the file's path,
/// size and modification time.
fn requantized_path(path: &Path) -> Option<PathBuf> {
    let meta = std::fs::metadata(path).ok()?;
    let mtime = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs();
    let key = format!("{}:{}:{mtime}", path.display(), meta.len());
    let dir = dirs::cache_dir()?.join("errdex");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join(format!(
        "{:016x}.q8_0.gguf",
        xxhash_rust::xxh3::xxh3_64(key.as_bytes())
    )))
}

impl Local {
    /// A model at `path` (not read until first used).
    pub fn new(path: PathBuf) -> Self {
        Local {
            path,
            loaded: Mutex::new(None),
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn load(&self) -> Result<Loaded, ModelError> {
        let bad = |e: &dyn std::fmt::Display| ModelError::Load {
            path: self.path.clone(),
            reason: e.to_string(),
        };
        let dev = Device::Cpu;
        let mut f = std::fs::File::open(&self.path).map_err(|e| bad(&e))?;
        let content = gguf_file::Content::read(&mut f).map_err(|e| bad(&e))?;
        let arch = match content.metadata.get("general.architecture") {
            Some(gguf_file::Value::String(s)) => s.clone(),
            _ => String::new(),
        };
        if arch != "llama" {
            return Err(bad(&format!(
                "architecture `{arch}` is not supported (llama-family GGUF only)"
            )));
        }
        let tokens = strings(&content, "tokenizer.ggml.tokens");
        let merges = strings(&content, "tokenizer.ggml.merges");
        if tokens.is_empty() || merges.is_empty() {
            return Err(bad(&"no BPE vocabulary and merges in the file"));
        }
        let bpe = bpe::Bpe::new(tokens, &merges);
        let end = bpe
            .id("<|im_end|>")
            .ok_or_else(|| bad(&"no ChatML `<|im_end|>` token: unsupported chat template"))?;
        // candle's quantized_llama precomputes rotary tables for 4096
        // positions, whatever the file's context length says.
        let context = match content.metadata.get("llama.context_length") {
            Some(gguf_file::Value::U32(n)) => (*n as usize).min(QUANTIZED_LLAMA_MAX_SEQ),
            _ => 2048,
        };
        let q4_1 = content
            .tensor_infos
            .values()
            .any(|t| t.ggml_dtype == GgmlDType::Q4_1);
        let model = match requantized_path(&self.path).filter(|_| q4_1) {
            Some(cached) => {
                if !cached.exists() {
                    requantize(&content, &mut f, &cached, &dev).map_err(|e| bad(&e))?;
                }
                let mut g = std::fs::File::open(&cached).map_err(|e| bad(&e))?;
                let c = gguf_file::Content::read(&mut g).map_err(|e| bad(&e))?;
                ModelWeights::from_gguf(c, &mut g, &dev).map_err(|e| bad(&e))?
            }
            None => ModelWeights::from_gguf(content, &mut f, &dev).map_err(|e| bad(&e))?,
        };
        Ok(Loaded {
            model,
            bpe,
            end,
            context,
        })
    }

    /// Runs the chat (system, user) and returns the reply, at most
    /// `max_tokens` long.
    pub fn chat(&self, system: &str, user: &str, max_tokens: usize) -> Result<String, ModelError> {
        let mut slot = self.loaded.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_none() {
            *slot = Some(self.load()?);
        }
        let m = slot.as_mut().expect("loaded above");
        let prompt = format!(
            "<|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"
        );
        let ids = m.bpe.encode(&prompt);
        if m.bpe.decode(&ids) != prompt {
            return Err(ModelError::RoundTrip);
        }
        if ids.len() + max_tokens > m.context {
            return Err(ModelError::TooLong {
                tokens: ids.len(),
                context: m.context,
            });
        }
        let dev = Device::Cpu;
        let input = Tensor::new(ids.as_slice(), &dev).and_then(|t| t.unsqueeze(0))?;
        let mut logits = m.model.forward(&input, 0)?;
        let mut out = Vec::new();
        for pos in ids.len()..ids.len() + max_tokens {
            let next = logits
                .squeeze(0)
                .and_then(|l| l.argmax(0))
                .and_then(|t| t.to_scalar::<u32>())?;
            if next == m.end {
                break;
            }
            out.push(next);
            let input = Tensor::new(&[next], &dev).and_then(|t| t.unsqueeze(0))?;
            logits = m.model.forward(&input, pos)?;
        }
        Ok(m.bpe.decode(&out))
    }
}

/// Writes a copy of the model with Q4_1 tensors re-quantized to Q8_0.
fn requantize(
    content: &gguf_file::Content,
    f: &mut std::fs::File,
    to: &Path,
    dev: &Device,
) -> candle_core::Result<()> {
    let mut tensors = Vec::new();
    for name in content.tensor_infos.keys() {
        let qt = content.tensor(f, name, dev)?;
        let qt = if qt.dtype() == GgmlDType::Q4_1 {
            QTensor::quantize(&qt.dequantize(dev)?, GgmlDType::Q8_0)?
        } else {
            qt
        };
        tensors.push((name.clone(), qt));
    }
    let meta: Vec<(&str, &gguf_file::Value)> = content
        .metadata
        .iter()
        .map(|(k, v)| (k.as_str(), v))
        .collect();
    let ts: Vec<(&str, &QTensor)> = tensors.iter().map(|(k, v)| (k.as_str(), v)).collect();
    // Written aside, then renamed: a killed run leaves no half file.
    let tmp = to.with_extension("partial");
    let mut out = std::fs::File::create(&tmp)?;
    gguf_file::write(&mut out, &meta, &ts)?;
    std::fs::rename(&tmp, to)?;
    Ok(())
}
