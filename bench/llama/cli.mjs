// What run.mjs and serve.mjs share: reading their command line and prompt, and loading llama.cpp the same way
// (node-llama-cpp's prebuilt CPU binary: no build, no download, errors only).
import {readFileSync} from "node:fs";
import {getLlama, LlamaLogLevel} from "node-llama-cpp";

/** The script's arguments; without the last of `count`, prints `usage` and exits with status 2. */
export function args(usage, count) {
    const given = process.argv.slice(2);
    if (!given[count - 1]) {
        console.error("usage: " + usage);
        process.exit(2);
    }
    return given;
}

/** `args`, read as a model file, a prompt file and numbers: every argument after the first two is a number. */
export function modelArgs(usage, count) {
    const [modelPath, promptFile, ...numbers] = args(usage, count);
    return [modelPath, promptFile, ...numbers.map(Number)];
}

/** The prompt's token ids, from a JSON array file. */
export function readPrompt(file) {
    return JSON.parse(readFileSync(file, "utf8"));
}

/** llama.cpp on the CPU with at most `threads` threads. */
export function cpuLlama(threads) {
    return getLlama({gpu: false, build: "never", skipDownload: true, progressLogs: false,
        logLevel: LlamaLogLevel.error, maxThreads: threads});
}
