package dev.crucible.runtime.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TemplateSourceTest {

    /** What jinja2 reads, what Jinjava is given for it, and the rule that rewrites it. */
    static Stream<Arguments> sources() {
        return Stream.of(
                arguments("not binds as Jinja2 around a test", "{% if not tools is defined %}",
                        "{% if not (tools is defined) %}"),
                arguments("not binds as Jinja2 around a negated test", "{% if not tools is not none %}",
                        "{% if not (tools is not none) %}"),
                arguments("not binds as Jinja2 around a comparison", "{% if not m.tool_calls|length == 1 %}",
                        "{% if not (m.tool_calls|length == 1) %}"),
                arguments("not binds as Jinja2 around membership", "{{ not 'x' in m['content'] }}",
                        "{{ not ('x' in m['content']) }}"),
                arguments("not before and is left alone", "{% if not loop.last and x %}",
                        "{% if not loop.last and x %}"),
                arguments("text and string literals are never rewritten",
                        "not x is defined {{ 'not x is defined' }} {# not y == 1 #}",
                        "not x is defined {{ 'not x is defined' }} {# not y == 1 #}"),
                arguments("a stepped slice becomes the slice filter", "{% for m in messages[::-1] %}",
                        "{% for m in (messages|crucible_slice(none, none, -1)) %}"),
                arguments("a stepped slice with bounds becomes the slice filter", "{{ s[1:-1:2] }}",
                        "{{ (s|crucible_slice(1, -1, 2)) }}"),
                arguments("a named argument holding an operator is parenthesised",
                        "{% set ns = namespace(a=messages|length - 1, b=true, c=\"x\") %}",
                        "{% set ns = namespace(a=(messages|length - 1), b=true, c=\"x\") %}"),
                arguments("a plain named argument is left alone", "{{ x|tojson(indent=4) }}",
                        "{{ x|tojson(indent=4) }}"),
                arguments("a comparison outside arguments is left alone", "{% if a == b %}", "{% if a == b %}"),
                arguments("a loop filter becomes the condition filter", "{%- for m in messages if m.role != 'system' %}",
                        "{%- for m in messages|crucible_where('m', 'm.role != \\'system\\'') %}"),
                arguments("string escapes Jinjava lacks are rewritten", "{{ '\\u00e9\\N{BULLET}\\d' }}",
                        "{{ '\u00e9\u2022\\\\d' }}"),
                arguments("string escapes Jinjava has are kept", "{{ \"a\\\"b\\\\c\" }}", "{{ \"a\\\"b\\\\c\" }}"),
                arguments("newlines are normalised and one trailing newline dropped", "a\r\nb\rc\n\n", "a\nb\nc\n"),
                arguments("a block's indentation and the newline after it are stripped",
                        "  {% if x %}\n  z\n  {% endif %}\n", "{% if x %}  z\n{% endif %}"),
                arguments("text before a block on its line keeps its indentation", "x  {% if x %}y",
                        "x  {% if x %}y"),
                arguments("+ turns the stripping off", "a {%+ if x %}b{% endif +%}\nc", "a {% if x %}b{% endif %}\nc"),
                arguments("an expression is not a block", "  {{ x }}\n\n", "  {{ x }}\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void preparesTheSourceAsJinja2ReadsIt(String rule, String source, String prepared) {
        assertEquals(prepared, TemplateSource.prepare(source));
    }
}
