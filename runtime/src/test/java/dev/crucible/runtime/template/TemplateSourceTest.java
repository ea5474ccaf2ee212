package dev.crucible.runtime.template;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TemplateSourceTest {

    @Test
    void bindsNotAsJinja2DoesAroundTestsComparisonsAndMembership() {
        assertEquals("{% if not (tools is defined) %}", TemplateSource.prepare("{% if not tools is defined %}"));
        assertEquals("{% if not (tools is not none) %}", TemplateSource.prepare("{% if not tools is not none %}"));
        assertEquals("{% if not (m.tool_calls|length == 1) %}",
                TemplateSource.prepare("{% if not m.tool_calls|length == 1 %}"));
        assertEquals("{{ not ('x' in m['content']) }}", TemplateSource.prepare("{{ not 'x' in m['content'] }}"));
        assertEquals("{% if not loop.last and x %}", TemplateSource.prepare("{% if not loop.last and x %}"));
    }

    @Test
    void neverRewritesTextOrStringLiterals() {
        String source = "not x is defined {{ 'not x is defined' }} {# not y == 1 #}";

        assertEquals(source, TemplateSource.prepare(source));
    }

    @Test
    void turnsSteppedSlicesIntoTheSliceFilter() {
        assertEquals("{% for m in (messages|crucible_slice(none, none, -1)) %}",
                TemplateSource.prepare("{% for m in messages[::-1] %}"));
        assertEquals("{{ (s|crucible_slice(1, -1, 2)) }}", TemplateSource.prepare("{{ s[1:-1:2] }}"));
    }

    @Test
    void parenthesisesNamedArgumentsHoldingOperators() {
        assertEquals("{% set ns = namespace(a=(messages|length - 1), b=true, c=\"x\") %}",
                TemplateSource.prepare("{% set ns = namespace(a=messages|length - 1, b=true, c=\"x\") %}"));
        assertEquals("{{ x|tojson(indent=4) }}", TemplateSource.prepare("{{ x|tojson(indent=4) }}"));
        assertEquals("{% if a == b %}", TemplateSource.prepare("{% if a == b %}"));
    }

    @Test
    void filtersLoopsThroughTheConditionFilter() {
        assertEquals("{%- for m in messages|crucible_where('m', 'm.role != \\'system\\'') %}",
                TemplateSource.prepare("{%- for m in messages if m.role != 'system' %}"));
    }

    @Test
    void rewritesStringLiteralEscapesJinjavaLacks() {
        assertEquals("{{ '\u00e9\u2022\\\\d' }}", TemplateSource.prepare("{{ '\\u00e9\\N{BULLET}\\d' }}"));
        assertEquals("{{ \"a\\\"b\\\\c\" }}", TemplateSource.prepare("{{ \"a\\\"b\\\\c\" }}"));
    }

    @Test
    void normalisesNewlinesAndDropsOneTrailingNewline() {
        assertEquals("a\nb\nc\n", TemplateSource.prepare("a\r\nb\rc\n\n"));
    }

    @Test
    void stripsBlockIndentationAndTheNewlineAfterBlocksAsJinja2() {
        assertEquals("{% if x %}  z\n{% endif %}", TemplateSource.prepare("  {% if x %}\n  z\n  {% endif %}\n"));
        assertEquals("x  {% if x %}y", TemplateSource.prepare("x  {% if x %}y"));
        assertEquals("a {% if x %}b{% endif %}\nc", TemplateSource.prepare("a {%+ if x %}b{% endif +%}\nc"));
        assertEquals("  {{ x }}\n", TemplateSource.prepare("  {{ x }}\n\n"));
    }
}
