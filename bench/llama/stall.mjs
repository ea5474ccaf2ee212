// The llama.cpp side of bench/serve's stall round: STREAMS sequences of one context decode the prompt's ids greedily
// until each has 16 tokens; then a further sequence evaluates a LONG-token prompt (the prompt's ids repeated), asking
// for its first token, while they go on; each stream stops 4 tokens after that first token. node-llama-cpp puts the
// sequences' pending tokens into one evaluation of at most BATCH tokens per step (decoding tokens first, then as much
// of the long prompt as fits), as llama-server does with its batch. Reports what ServeStall.java reports: the
// streams' idle inter-token latency (median gap before the long prompt, their first 2 gaps left out), their worst gap
// overlapping its prefill, the ratio, and the long prompt's time to first token with the streams running and alone.
// Prints one JSON object on stdout.
//
// usage: node stall.mjs MODEL.gguf PROMPT_IDS.json STREAMS LONG THREADS BATCH
import {args, cpuLlama, readPrompt} from "./cli.mjs";

const [modelPath, promptFile, streamsArg, longArg, threadsArg, batchArg] = args(
    "node stall.mjs MODEL.gguf PROMPT_IDS.json STREAMS LONG THREADS BATCH", 6);
const streams = Number(streamsArg);
const longTokens = Number(longArg);
const threads = Number(threadsArg);
const batchSize = Number(batchArg);
const prompt = readPrompt(promptFile);
const SETTLED = 16, AFTER = 4, SKIPPED = 2;

/** LONG ids: the prompt's repeated, the first one changed per use so nothing is reused between the two runs. */
function longPrompt(first) {
    const ids = Array.from({length: longTokens}, (_, i) => prompt[i % prompt.length]);
    ids[0] = first;
    return ids;
}

const llama = await cpuLlama(threads);
const model = await llama.loadModel({modelPath, gpuLayers: 0});
const context = await model.createContext({
    contextSize: longTokens + 1024, batchSize, sequences: streams + 1,
    flashAttention: false, threads: {ideal: threads, min: threads},
    experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32",
});
const sequences = Array.from({length: streams + 1}, () => context.getSequence());
const longSequence = sequences.pop();

/** Evaluates ids on the long sequence, which must be empty, until its first token; returns when that came. */
async function firstToken(ids) {
    for await (const token of longSequence.evaluate(ids, {temperature: 0, yieldEogToken: true})) {
        return performance.now();
    }
}

// warm-up: a short round of the streams, untimed
await Promise.all(sequences.map(async (s) => {
    let n = 0;
    for await (const token of s.evaluate(prompt, {temperature: 0, yieldEogToken: true})) if (++n === 8) break;
}));

let start = performance.now();
const ttftAlone = (await firstToken(longPrompt(prompt[1]))) - start;
// Emptied now, not when the long prompt is sent: clearing a sequence takes the context's lock, which node-llama-cpp
// holds for as long as any sequence has tokens queued, so with the streams decoding it would wait for ever (the round
// never ended).
await longSequence.clearHistory();

let sent = Infinity, firstLong = Infinity;
const times = sequences.map(() => []);
const decoding = sequences.map(async (s, i) => {
    await s.clearHistory();
    for await (const token of s.evaluate(prompt, {temperature: 0, yieldEogToken: true})) {
        const now = performance.now();
        times[i].push(now);
        if (times[i].filter((t) => t > firstLong).length >= AFTER) break;
    }
});
while (times.some((t) => t.length < SETTLED)) await new Promise((r) => setTimeout(r, 2));
sent = performance.now();
firstLong = await firstToken(longPrompt(prompt[2]));
await Promise.all(decoding);

const idle = [], during = [];
for (const t of times) {
    for (let i = 1; i < t.length; i++) {
        const gap = t[i] - t[i - 1];
        if (t[i] < sent && i > SKIPPED) idle.push(gap);
        else if (t[i] > sent && t[i - 1] < firstLong) during.push(gap);
    }
}
idle.sort((a, b) => a - b);
during.sort((a, b) => b - a);
const idleItl = idle[Math.floor(idle.length / 2)];
const result = {
    streams, long_prompt_tokens: longTokens, idle_itl_ms: idleItl, worst_gap_ms: during[0],
    stall: during[0] / idleItl, ttft_alone_ms: ttftAlone, ttft_stall_ms: firstLong - sent,
    gaps_during_ms: during.slice(0, 8), gaps_during: during.length, batch: batchSize,
};
console.error(`llama.cpp stall: ${streams} streams, ${longTokens}-token prompt: worst gap ${during[0].toFixed(0)} ms `
    + `over idle ITL ${idleItl.toFixed(0)} ms`);
console.log(JSON.stringify(result));
await context.dispose();
await model.dispose();
await llama.dispose();
