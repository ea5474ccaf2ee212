package dev.crucible.runtime.template;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.LegacyOverrides;
import com.hubspot.jinjava.el.JinjavaInterpreterResolver;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.lib.fn.ELFunctionDefinition;
import com.hubspot.jinjava.loader.ResourceNotFoundException;
import java.time.Clock;
import java.util.Locale;
import jinjava.javax.el.CompositeELResolver;

/**
 * Builds a Jinjava engine that renders like transformers' jinja2 environment
 * ({@code ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])} plus
 * {@code tojson}, {@code raise_exception}, {@code strftime_now} and the {@code generation} tag). Nested interpretation
 * is off: a message containing {@code {{ … }}} is text, never a template. There is no loader, as in transformers:
 * {@code include}, {@code import}, {@code from} and {@code extends} read nothing and fail the render. The engine is
 * immutable once built and may be shared by threads, each render using its own interpreter.
 */
final class JinjaEnvironment {

    /** Values under the globals' names, so {@code strftime_now is defined} holds as it does in jinja2. */
    private static final String FUNCTION_MARKER = "<built-in function>";
    private static final int MAX_MACRO_DEPTH = 200;

    private JinjaEnvironment() {
    }

    static Jinjava create(Clock clock) {
        return create(clock, Long.MAX_VALUE);
    }

    /** As {@link #create(Clock)}, with renders refused once their output passes {@code maxOutputChars}. */
    static Jinjava create(Clock clock, long maxOutputChars) {
        CompositeELResolver resolver = new CompositeELResolver();
        resolver.add(new PythonMethodResolver());
        resolver.add(JinjavaInterpreterResolver.DEFAULT_RESOLVER_READ_ONLY);
        JinjavaConfig config = JinjavaConfig.newBuilder()
                // trim_blocks and lstrip_blocks are applied by TemplateSource, as jinja2's lexer applies them
                .withTrimBlocks(false)
                .withLstripBlocks(false)
                .withLegacyOverrides(LegacyOverrides.newBuilder()
                        // makes {{- … -}} and {#- … #} trim, as in jinja2; never LegacyOverrides.ALL, whose
                        // whitespace-required-within-tokens leaves templates unrendered
                        .withUseTrimmingForNotesAndExpressions(true)
                        .withUseNaturalOperatorPrecedence(true)
                        .withParseWhitespaceControlStrictly(true)
                        .withKeepNullableLoopValues(true)
                        .withIterateOverMapKeys(true)
                        .withHandleBackslashInQuotesOnly(true)
                        .build())
                .withNestedInterpretationEnabled(false)
                // jinja2 lets macros recurse (gpt-oss renders nested JSON schemas so); the bound stands in for
                // Python's recursion limit
                .withEnableRecursiveMacroCalls(true)
                .withMaxMacroRecursionDepth(MAX_MACRO_DEPTH)
                .withMaxOutputSize(maxOutputChars == Long.MAX_VALUE ? 0 : maxOutputChars)
                .withElResolver(resolver)
                .withInterperterFactory(new PythonicInterpreter.Factory())
                .withDateTimeProvider(clock::millis)
                .withTimeZone(clock.getZone())
                .withLocale(Locale.ROOT)
                .build();
        Jinjava jinjava = new Jinjava(config);
        // transformers' environment has no loader; Jinjava's default reads class-path resources, which a template a
        // request brings could then pull into its prompt
        jinjava.setResourceLocator((name, encoding, interpreter) -> {
            throw new ResourceNotFoundException("a chat template cannot load other templates: it has no loader");
        });
        jinjava.registerFilter(new ToJsonFilter());
        jinjava.registerFilter(JinjaFilters.ITEMS);
        jinjava.registerFilter(JinjaFilters.TRIM);
        jinjava.registerFilter(new SliceFilter());
        jinjava.registerFilter(JinjaFilters.WHERE);
        jinjava.registerExpTest(new IterableCheck());
        jinjava.registerTag(new GenerationTag());
        register(jinjava, "raise_exception", "raiseException", Object.class);
        register(jinjava, "strftime_now", "strftimeNow", String.class);
        return jinjava;
    }

    private static void register(Jinjava jinjava, String name, String method, Class<?> parameter) {
        jinjava.registerFunction(new ELFunctionDefinition("", name, TemplateFunctions.class, method, parameter));
        Context globals = jinjava.getGlobalContext();
        globals.put(name, FUNCTION_MARKER);
    }
}
