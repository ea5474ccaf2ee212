#!/usr/bin/env python3
"""Independent NumPy reference for Crucible's engine tests: the forward pass of Hugging Face transformers'
LlamaForCausalLM, Qwen2ForCausalLM and Qwen3ForCausalLM, written from their modeling code (modeling_llama.py,
modeling_qwen2.py, modeling_qwen3.py), reading config.json and model.safetensors by hand.

It shares no code with the engines: the safetensors header is parsed here, rotary frequencies (with Llama 3 scaling)
are computed as transformers' rope_init functions do, and attention runs with no cache over the whole sequence, as
transformers does with use_cache=False. Activations are float64, so the reference is more precise than a float32
engine; inv_freq is float32 because transformers computes it in float32.

With --adapter, a LoRA adapter saved in PEFT's format (adapter_config.json, adapter_model.safetensors) is applied as
peft's LoraLayer.forward does in eval mode: every adapted projection becomes W x + b + scaling * B (A x), with
scaling = lora_alpha / r (lora_alpha / sqrt(r) with use_rslora).

Usage (regenerates the committed fixtures; the tests themselves never run Python):

    ./crucible models make-tiny --arch qwen3 --seed 7 --out /tmp/tiny/qwen3   # likewise qwen2, llama
    python3 reference.py --model /tmp/tiny/qwen3 --seed 7 --out engine-djl/src/test/resources/reference

Writes <arch>.json (prompt, greedy continuation, SHA-256 of model.safetensors) and float32 little-endian logits:
<arch>-sequence.f32 holds [len(prompt) + len(greedy) - 1, vocab] (the logits after every token of prompt + greedy
tokens but the last, row i predicting token i + 1), <arch>-extra.f32 holds [len(extra prompts), vocab] (the logits
after the last token of each extra prompt).

With an adapter (written by dev.crucible.hf.tiny.TinyAdapter.writeRandom from the model's config and a seed; see
MakeTinyAdapter.java next to this file), the same files are named <arch>-lora*, and the JSON also holds the adapter's
seed and the SHA-256 of its adapter_model.safetensors:

    java -cp hf-format/target/classes:$JACKSON_JARS engine-djl/src/test/resources/reference/MakeTinyAdapter.java \
        /tmp/tiny/qwen3 11 /tmp/tiny/qwen3-lora
    python3 reference.py --model /tmp/tiny/qwen3 --seed 7 --adapter /tmp/tiny/qwen3-lora --adapter-seed 11 \
        --out engine-djl/src/test/resources/reference
"""
import argparse
import hashlib
import json
import os
import re
import struct

import numpy as np

PROMPT = [12, 345, 67, 89, 401, 5, 600, 233, 77, 150, 9, 512]
EXTRA_PROMPTS = [[640, 3, 77, 410, 21], [8, 250, 199, 31, 404, 6, 88, 120, 515]]
GREEDY_TOKENS = 16
DTYPES = {"F32": np.float32, "F16": np.float16, "F64": np.float64}


def read_safetensors(path):
    """The format: little-endian u64 header length, a JSON header {name: {dtype, shape, data_offsets}}, the data."""
    with open(path, "rb") as f:
        blob = f.read()
    (header_len,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + header_len])
    data = blob[8 + header_len:]
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        raw = data[begin:end]
        if info["dtype"] == "BF16":  # bfloat16 is the upper half of a float32
            values = (np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16).view(np.float32)
        else:
            values = np.frombuffer(raw, dtype=np.dtype(DTYPES[info["dtype"]]).newbyteorder("<"))
        tensors[name] = values.reshape(info["shape"]).astype(np.float64)
    return tensors


def rope_inv_freq(cfg, head_dim):
    """_compute_default_rope_parameters, then _compute_llama3_parameters when rope_type is llama3 (float32)."""
    base = cfg.get("rope_theta", 10000.0)
    exponents = np.arange(0, head_dim, 2, dtype=np.int64).astype(np.float32) / np.float32(head_dim)
    inv_freq = (np.float32(1.0) / (np.float32(base) ** exponents)).astype(np.float32)
    scaling = cfg.get("rope_scaling") or {}
    if scaling.get("rope_type", scaling.get("type")) != "llama3":
        return inv_freq
    factor = scaling["factor"]
    low_freq_factor = scaling["low_freq_factor"]
    high_freq_factor = scaling["high_freq_factor"]
    old_context_len = scaling["original_max_position_embeddings"]
    low_freq_wavelen = old_context_len / low_freq_factor
    high_freq_wavelen = old_context_len / high_freq_factor
    wavelen = (2 * np.pi / inv_freq).astype(np.float32)
    inv_freq_llama = np.where(wavelen > low_freq_wavelen, inv_freq / np.float32(factor), inv_freq)
    smooth_factor = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    smoothed = (1 - smooth_factor) * inv_freq_llama / factor + smooth_factor * inv_freq_llama
    is_medium = ~(wavelen < high_freq_wavelen) & ~(wavelen > low_freq_wavelen)
    return np.where(is_medium, smoothed, inv_freq_llama).astype(np.float32)


def rms_norm(x, weight, eps):
    """LlamaRMSNorm (Qwen2RMSNorm, Qwen3RMSNorm): x * rsqrt(mean(x^2) + eps) * weight, over the last axis."""
    variance = np.mean(x * x, axis=-1, keepdims=True)
    return weight * (x / np.sqrt(variance + eps))


def rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def linear(x, w, b=None):
    y = x @ w.T
    return y if b is None else y + b


def read_adapter(folder):
    """{module path: (A [r, in], B [out, r], scaling)} of a PEFT LoRA folder, keyed like model weight names."""
    with open(os.path.join(folder, "adapter_config.json")) as f:
        cfg = json.load(f)
    r = cfg["r"]
    scaling = cfg["lora_alpha"] / (np.sqrt(r) if cfg.get("use_rslora") else r)
    tensors = read_safetensors(os.path.join(folder, "adapter_model.safetensors"))
    prefix = "base_model.model."
    lora = {}
    for name, a in tensors.items():
        if name.endswith(".lora_A.weight"):
            module = name[len(prefix):-len(".lora_A.weight")]
            lora[module + ".weight"] = (a, tensors[name.replace(".lora_A.", ".lora_B.")], scaling)
    return lora


def lora_linear(lora, x, w, name, b=None):
    """peft's LoraLayer.forward without dropout: base(x) + scaling * lora_B(lora_A(x))."""
    y = linear(x, w[name], b)
    if name in lora:
        a, bm, scaling = lora[name]
        y = y + scaling * ((x @ a.T) @ bm.T)
    return y


def silu(x):
    return x / (1.0 + np.exp(-x))


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def forward(cfg, w, ids, lora=None):
    """The logits [len(ids), vocab] of CausalLM(input_ids=ids) with position_ids 0..len-1 and a causal mask, with the
    LoRA adapter lora (from read_adapter) applied when given."""
    lora = lora or {}
    arch = cfg["architectures"][0]
    heads = cfg["num_attention_heads"]
    kv_heads = cfg.get("num_key_value_heads", heads)
    head_dim = cfg.get("head_dim") or cfg["hidden_size"] // heads
    eps = cfg.get("rms_norm_eps", 1e-6)
    qk_norm = arch == "Qwen3ForCausalLM"
    n = len(ids)

    inv_freq = rope_inv_freq(cfg, head_dim)
    freqs = np.arange(n, dtype=np.float32)[:, None] * inv_freq[None, :]
    emb = np.concatenate([freqs, freqs], axis=-1).astype(np.float64)
    cos, sin = np.cos(emb)[None], np.sin(emb)[None]  # [1, n, head_dim], broadcast over heads
    causal = np.triu(np.full((n, n), -np.inf), k=1)
    scaling = head_dim ** -0.5

    h = w["model.embed_tokens.weight"][np.array(ids)]
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}."
        residual = h
        x = rms_norm(h, w[p + "input_layernorm.weight"], eps)
        a = p + "self_attn."
        q = lora_linear(lora, x, w, a + "q_proj.weight", w.get(a + "q_proj.bias")).reshape(n, heads, head_dim)
        k = lora_linear(lora, x, w, a + "k_proj.weight", w.get(a + "k_proj.bias")).reshape(n, kv_heads, head_dim)
        v = lora_linear(lora, x, w, a + "v_proj.weight", w.get(a + "v_proj.bias")).reshape(n, kv_heads, head_dim)
        if qk_norm:  # Qwen3: RMSNorm over head_dim of each head, before rotary embedding
            q = rms_norm(q, w[a + "q_norm.weight"], eps)
            k = rms_norm(k, w[a + "k_norm.weight"], eps)
        q, k, v = q.transpose(1, 0, 2), k.transpose(1, 0, 2), v.transpose(1, 0, 2)  # [heads, n, head_dim]
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k = np.repeat(k, heads // kv_heads, axis=0)  # repeat_kv: query head j uses key/value head j // n_rep
        v = np.repeat(v, heads // kv_heads, axis=0)
        attn = softmax(q @ k.transpose(0, 2, 1) * scaling + causal)
        out = (attn @ v).transpose(1, 0, 2).reshape(n, heads * head_dim)
        h = residual + lora_linear(lora, out, w, a + "o_proj.weight", w.get(a + "o_proj.bias"))
        residual = h
        x = rms_norm(h, w[p + "post_attention_layernorm.weight"], eps)
        m = p + "mlp."
        x = lora_linear(lora, silu(lora_linear(lora, x, w, m + "gate_proj.weight"))
                        * lora_linear(lora, x, w, m + "up_proj.weight"), w, m + "down_proj.weight")
        h = residual + x
    h = rms_norm(h, w["model.norm.weight"], eps)
    head = w["model.embed_tokens.weight"] if cfg.get("tie_word_embeddings") else w["lm_head.weight"]
    return linear(h, head)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", required=True, help="a Hugging Face model folder")
    parser.add_argument("--seed", type=int, required=True, help="the seed the tiny model was written with")
    parser.add_argument("--out", required=True, help="the folder to write the fixtures to")
    parser.add_argument("--adapter", help="a PEFT LoRA folder to apply (its fixtures are named <arch>-lora*)")
    parser.add_argument("--adapter-seed", type=int, help="the seed the adapter was written with")
    args = parser.parse_args()
    if (args.adapter is None) != (args.adapter_seed is None):
        parser.error("--adapter and --adapter-seed go together")

    with open(os.path.join(args.model, "config.json")) as f:
        cfg = json.load(f)
    weights_path = os.path.join(args.model, "model.safetensors")
    with open(weights_path, "rb") as f:
        sha256 = hashlib.sha256(f.read()).hexdigest()
    w = read_safetensors(weights_path)
    arch = cfg["model_type"]
    lora = read_adapter(args.adapter) if args.adapter else None
    assert not lora or all(k in w for k in lora), "the adapter adapts weights the model does not have"
    name = arch + "-lora" if lora else arch

    # Greedy decoding as generate(do_sample=False, use_cache=False): a full forward pass for every new token.
    ids = list(PROMPT)
    margins = []
    for _ in range(GREEDY_TOKENS):
        last = forward(cfg, w, ids, lora)[-1]
        top2 = np.sort(last)[-2:]
        margins.append(float(top2[1] - top2[0]))
        ids.append(int(np.argmax(last)))
    greedy = ids[len(PROMPT):]
    sequence = forward(cfg, w, ids[:-1], lora)
    assert [int(t) for t in np.argmax(sequence[len(PROMPT) - 1:], axis=-1)] == greedy
    extra = np.stack([forward(cfg, w, p, lora)[-1] for p in EXTRA_PROMPTS])

    os.makedirs(args.out, exist_ok=True)
    sequence.astype("<f4").tofile(os.path.join(args.out, f"{name}-sequence.f32"))
    extra.astype("<f4").tofile(os.path.join(args.out, f"{name}-extra.f32"))
    fixture = {
        "architecture": arch,
        "seed": args.seed,
        "model_sha256": sha256,
        "vocab_size": cfg["vocab_size"],
        "prompt": PROMPT,
        "greedy": greedy,
        "min_greedy_margin": min(margins),
        "sequence_logits": f"{name}-sequence.f32",
        "extra_prompts": EXTRA_PROMPTS,
        "extra_logits": f"{name}-extra.f32",
    }
    if lora:
        with open(os.path.join(args.adapter, "adapter_model.safetensors"), "rb") as f:
            fixture["adapter_seed"] = args.adapter_seed
            fixture["adapter_sha256"] = hashlib.sha256(f.read()).hexdigest()
    text = json.dumps(fixture, indent=2)
    text = re.sub(r"\[[-\d,\s]+\]", lambda m: json.dumps(json.loads(m.group(0))), text)  # one line per id list
    with open(os.path.join(args.out, f"{name}.json"), "w") as f:
        f.write(text + "\n")
    print(f"{name}: greedy {greedy}, min top-2 margin {min(margins):.4f}, logits std {sequence.std():.3f}")


if __name__ == "__main__":
    main()
