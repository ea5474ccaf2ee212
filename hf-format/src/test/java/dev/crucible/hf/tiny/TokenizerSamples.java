package dev.crucible.hf.tiny;

import dev.crucible.hf.config.Architecture;
import java.util.ArrayList;
import java.util.List;

/** Texts that exercise a byte-level BPE tokenizer's corners: specials, unicode, code, numbers and whitespace. */
final class TokenizerSamples {

    private static final List<String> COMMON = List.of("Hello world", "Hello, world! How are you today?",
            "The quick brown fox jumps over the lazy dog.", "", " ", "   leading spaces", "trailing spaces   ",
            "\n", "\n\n\n", "a\r\nb\r\n", "line one\nline two\n\n  indented", "tabs\tand\t\ttabs",
            "I'll say it's fine; WE'RE sure they'D agree, don't you?", "numbers 0 12 345 6789 1234567 3.14159 1e-6",
            "2024-01-15T12:30:00Z costs $19.99 (or 5,000 EUR)", "ünïcödé café crème brûlée naïve",
            "decomposed e\u0301 and composed é", "你好，世界！今天天气很好。", "こんにちは、世界", "Привет, мир!",
            "emoji 😀🎉👍🏽 and a family 👨‍👩‍👧", "zero\u200Bwidth", "no\u00A0break and ideographic\u3000space",
            "em\u2003space and nel\u0085here", "def f(x):\n    return x * 2\n\nprint(f(21))\n",
            "public static void main(String[] args) { System.out.println(\"hi\"); }",
            "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Berlin\"}}", "a<b>c</b> && x|y || z",
            "<|im_start|", "<|not_a_token|>", "<thinking>", "C:\\path\\to\\file.txt");

    private TokenizerSamples() {
    }

    static List<String> specials(Architecture arch) {
        return arch == Architecture.LLAMA
                ? List.of("<|begin_of_text|>", "<|end_of_text|>", "<|start_header_id|>", "<|end_header_id|>",
                        "<|eot_id|>")
                : List.of("<|endoftext|>", "<|im_start|>", "<|im_end|>", "<think>", "</think>", "<tool_call>",
                        "</tool_call>");
    }

    static List<String> all(Architecture arch) {
        List<String> texts = new ArrayList<>(COMMON);
        texts.addAll(specials(arch));
        texts.add(String.join("", specials(arch)));
        if (arch == Architecture.LLAMA) {
            texts.add("<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi there!<|eot_id|>"
                    + "<|start_header_id|>assistant<|end_header_id|>\n\n");
        } else {
            texts.add("<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n"
                    + "<|im_start|>assistant\n<think>\nThe user greets me.\n</think>\n\nHello!<|im_end|>");
            texts.add("<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call><|endoftext|>");
        }
        return texts;
    }
}
