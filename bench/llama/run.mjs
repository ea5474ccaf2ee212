// The llama.cpp side of Crucible's decode benchmark, through node-llama-cpp's prebuilt CPU binary (no build, no
// download). Timed as the Java side is: batch 1, a fresh sequence per run, greedy; time to first token is the prefill of
// the prompt's ids plus sampling the first token, decode tokens/s is DECODE / time over the next DECODE tokens. One
// untimed warm-up run comes first. Prints one JSON object on stdout.
//
// usage: node run.mjs MODEL.gguf PROMPT_IDS.json DECODE_TOKENS RUNS THREADS
import {readFileSync} from "node:fs";
import {loadavg} from "node:os";
import {cpuLlama, modelArgs, readPrompt} from "./cli.mjs";

const [modelPath, promptFile, decodeTokens, runs, threads] = modelArgs(
    "node run.mjs MODEL.gguf PROMPT_IDS.json DECODE_TOKENS RUNS THREADS", 5);
const prompt = readPrompt(promptFile);
const load = () => loadavg().map((v) => v.toFixed(2)).join(" ");
const loadStart = load();

const llama = await cpuLlama(threads);
const t0 = performance.now();
const model = await llama.loadModel({modelPath, gpuLayers: 0});
// F32 KV cache and no flash attention, to match Crucible's F32 everything.
const context = await model.createContext({
    contextSize: Math.max(256, prompt.length + decodeTokens + 8), batchSize: Math.max(prompt.length, 64), sequences: 1, flashAttention: false,
    threads: {ideal: threads, min: threads},
    experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32",
});
const loadS = (performance.now() - t0) / 1000;
const sequence = context.getSequence();

async function once(decode) {
    await sequence.clearHistory();
    const tokens = [];
    const start = performance.now();
    let first = 0;
    for await (const token of sequence.evaluate(prompt, {temperature: 0, yieldEogToken: true})) {
        tokens.push(token);
        if (tokens.length === 1) first = performance.now();
        if (tokens.length === decode + 1) break;
    }
    const end = performance.now();
    return {ttftMs: first - start, decodeTps: decode / ((end - first) / 1000), tokens};
}

await once(Math.min(4, decodeTokens)); // warm-up, untimed
const ttft = [];
const tps = [];
let generated = [];
for (let r = 0; r < runs; r++) {
    const t = await once(decodeTokens);
    ttft.push(t.ttftMs);
    tps.push(t.decodeTps);
    generated = t.tokens;
    console.error(`llama.cpp: run ${r + 1}/${runs}  ttft ${t.ttftMs.toFixed(0)} ms  decode ${t.decodeTps.toFixed(2)} tok/s`);
}
const pkg = JSON.parse(readFileSync(new URL("./node_modules/node-llama-cpp/package.json", import.meta.url), "utf8"));
const result = {
    engine: `llama.cpp ${llama.llamaCppRelease?.release ?? "?"} via node-llama-cpp ${pkg.version} (${llama.buildType} binary, gpu ${llama.gpu}, context threads ${context.currentThreads})`,
    threads,
    kv_cache: "F32",
    load_s: loadS,
    prompt_tokens: prompt.length,
    ttft_ms: ttft,
    decode_tps: tps,
    generated,
    loadavg_start: loadStart,
    loadavg_end: load(),
};
console.log(JSON.stringify(result));
await context.dispose();
await model.dispose();
await llama.dispose();
