// The llama.cpp side of bench/serve: STREAMS sequences of one context decoded at once through node-llama-cpp's
// prebuilt CPU binary (it batches the sequences of a context into one evaluation per step), each the prompt's ids and
// then DECODE greedy tokens. Timed as the server's streams are: time to first token from the start to a sequence's
// first token, inter-token latency the gaps between its tokens, aggregate tok/s all decoded tokens over the wall time.
// ROUNDS rounds after one untimed warm-up round. Prints one JSON object on stdout.
//
// usage: node serve.mjs MODEL.gguf PROMPT_IDS.json DECODE_TOKENS STREAMS ROUNDS THREADS
import {cpuLlama, modelArgs, readPrompt} from "./cli.mjs";

const [modelPath, promptFile, decodeTokens, streams, rounds, threads] = modelArgs(
    "node serve.mjs MODEL.gguf PROMPT_IDS.json DECODE_TOKENS STREAMS ROUNDS THREADS", 6);
const prompt = readPrompt(promptFile);

const llama = await cpuLlama(threads);
const model = await llama.loadModel({modelPath, gpuLayers: 0});
const context = await model.createContext({
    contextSize: streams * 256, batchSize: Math.max(prompt.length * streams, 64), sequences: streams,
    flashAttention: false, threads: {ideal: threads, min: threads},
    experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32",
});
const sequences = Array.from({length: streams}, () => context.getSequence());

async function decode(sequence, start) {
    await sequence.clearHistory();
    let first = -1;
    let last = 0;
    let count = 0;
    const gaps = [];
    for await (const token of sequence.evaluate(prompt, {temperature: 0, yieldEogToken: true})) {
        const now = performance.now();
        if (first < 0) first = now - start; else gaps.push(now - last);
        last = now;
        if (++count === decodeTokens) break;
    }
    return {ttftMs: first, gaps, count};
}

async function round() {
    const start = performance.now();
    const done = await Promise.all(sequences.map((s) => decode(s, start)));
    const seconds = (performance.now() - start) / 1000;
    return {done, aggregate: done.reduce((n, d) => n + d.count, 0) / seconds};
}

await round(); // warm-up, untimed
const result = {streams, aggregate_tps: [], ttft_ms: [], itl_ms: [], prompt_tokens: prompt.length};
for (let r = 0; r < rounds; r++) {
    const {done, aggregate} = await round();
    result.aggregate_tps.push(aggregate);
    for (const d of done) {
        result.ttft_ms.push(d.ttftMs);
        result.itl_ms.push(...d.gaps);
    }
    console.error(`llama.cpp: ${streams} sequences, round ${r + 1}/${rounds}: ${aggregate.toFixed(2)} tok/s aggregate`);
}
console.log(JSON.stringify(result));
await context.dispose();
await model.dispose();
await llama.dispose();
