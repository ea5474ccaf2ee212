package dev.crucible.runtime.template;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.LegacyOverrides;
import com.hubspot.jinjava.el.TypeConvertingMapELResolver;
import com.hubspot.jinjava.el.ext.JinjavaListELResolver;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.Context.Library;
import com.hubspot.jinjava.lib.exptest.ExpTest;
import com.hubspot.jinjava.lib.filter.Filter;
import com.hubspot.jinjava.lib.fn.ELFunctionDefinition;
import com.hubspot.jinjava.lib.tag.Tag;
import com.hubspot.jinjava.loader.ResourceNotFoundException;
import java.time.Clock;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import jinjava.javax.el.CompositeELResolver;

/**
 * Builds a Jinjava engine that renders like transformers' jinja2 environment
 * ({@code ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])} plus
 * {@code tojson}, {@code raise_exception}, {@code strftime_now} and the {@code generation} tag). Nested interpretation
 * is off: a message containing {@code {{ … }}} is text, never a template. There is no loader, as in transformers:
 * {@code include}, {@code import}, {@code from} and {@code extends} read nothing and fail the render.
 *
 * <p>Like jinja2's sandbox, a template reaches no Java: only jinja2's filters, tests, globals and tags are enabled
 * ({@link #ALLOWED}; Jinjava's others, such as {@code regex_replace}, {@code fromjson} or {@code fn:list}, are
 * disabled), every method call goes through {@link PythonMethodResolver} and {@link Sandbox}, and every filter runs as
 * a {@link BoundedFilter}. Each node a render reaches checks the render's {@link Budget} first. The engine is
 * immutable once built and may be shared by threads, each render using its own interpreter.
 */
final class JinjaEnvironment {

    /** Values under the globals' names, so {@code strftime_now is defined} holds as it does in jinja2. */
    private static final String FUNCTION_MARKER = "<built-in function>";
    private static final int MAX_MACRO_DEPTH = 200;

    private JinjaEnvironment() {
    }

    static Jinjava create(Clock clock) {
        return create(clock, Long.MAX_VALUE, Integer.MAX_VALUE);
    }

    /**
     * As {@link #create(Clock)}, with renders refused once their output or a string they make passes
     * {@code maxChars}, or a list they make passes {@code maxItems}.
     */
    static Jinjava create(Clock clock, long maxChars, int maxItems) {
        CompositeELResolver resolver = new CompositeELResolver();
        resolver.add(new PythonMethodResolver());
        resolver.add(new JinjavaListELResolver(true));
        resolver.add(new TypeConvertingMapELResolver(true));
        resolver.add(new Sandbox());
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
                .withMaxOutputSize(maxChars == Long.MAX_VALUE ? 0 : maxChars)
                .withMaxStringLength(maxChars == Long.MAX_VALUE ? 0 : maxChars)
                .withMaxListSize(maxItems)
                .withMaxMapSize(maxItems)
                .withDisabled(DISABLED)
                .withNodePreProcessor((node, interpreter) -> Budget.of(interpreter).tick())
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
        for (Filter filter : List.copyOf(jinjava.getGlobalContext().getAllFilters())) {
            jinjava.registerFilter(new BoundedFilter(filter));
        }
        jinjava.registerExpTest(new IterableCheck());
        jinjava.registerTag(new GenerationTag());
        register(jinjava, "raise_exception", "raiseException", Object.class);
        register(jinjava, "strftime_now", "strftimeNow", String.class);
        jinjava.registerFunction(new ELFunctionDefinition("", "range", TemplateFunctions.class, "range", Object.class,
                Object[].class));
        return jinjava;
    }

    /**
     * What a template may use, by Jinjava's library: jinja2's builtin filters, tests and globals, the ones
     * transformers adds, the tags of jinja2 with loopcontrols, and Crucible's own helpers. jinja2 filters Jinjava lacks
     * ({@code max}, {@code min}) stay missing; {@code pprint} is left out, since Jinjava's prints Java objects.
     * {@code truthy} is Jinjava's own, which its {@code select} and {@code reject} use.
     */
    static final Map<Library, Set<String>> ALLOWED = Map.of(
            Library.FILTER, Set.of("abs", "attr", "batch", "capitalize", "center", "count", "d", "default",
                    "dictsort", "e", "escape", "filesizeformat", "first", "float", "forceescape", "format", "groupby",
                    "indent", "int", "items", "join", "last", "length", "list", "lower", "map", "random", "reject",
                    "rejectattr", "replace", "reverse", "round", "safe", "select", "selectattr", "slice", "sort",
                    "string", "striptags", "sum", "title", "tojson", "trim", "truncate", "unique", "upper",
                    "urlencode", "urlize", "wordcount", "wordwrap", "xmlattr", "crucible_slice", "crucible_where"),
            Library.EXP_TEST, Set.of("!=", "<", "<=", "==", ">", ">=", "boolean", "defined", "divisibleby", "eq",
                    "equalto", "even", "false", "float", "ge", "greaterthan", "gt", "in", "integer", "iterable", "le",
                    "lessthan", "lower", "lt", "mapping", "ne", "none", "number", "odd", "sameas", "sequence", "string",
                    "true", "truthy", "undefined", "upper"),
            Library.FUNCTION, Set.of(":namespace", ":range", ":raise_exception", ":strftime_now"),
            Library.TAG, Set.of("autoescape", "block", "break", "call", "continue", "elif", "else", "endautoescape",
                    "endblock", "endcall", "endfor", "endif", "endmacro", "endraw", "endset", "extends", "for",
                    "from", "if", "import", "include", "macro", "raw", "set", "generation", "endgeneration"));

    /** Everything Jinjava offers that {@link #ALLOWED} does not name. */
    private static final Map<Library, Set<String>> DISABLED = disabled();

    private static Map<Library, Set<String>> disabled() {
        Context offered = new Jinjava().getGlobalContext();
        Map<Library, Set<String>> disabled = new EnumMap<>(Library.class);
        disabled.put(Library.FILTER, names(offered.getAllFilters().stream().map(Filter::getName), Library.FILTER));
        disabled.put(Library.EXP_TEST, names(offered.getAllExpTests().stream().map(ExpTest::getName),
                Library.EXP_TEST));
        disabled.put(Library.FUNCTION, names(offered.getAllFunctions().stream().map(ELFunctionDefinition::getName),
                Library.FUNCTION));
        disabled.put(Library.TAG, names(offered.getAllTags().stream().map(Tag::getName), Library.TAG));
        return Collections.unmodifiableMap(disabled);
    }

    private static Set<String> names(Stream<String> offered, Library library) {
        return offered.filter(name -> !ALLOWED.get(library).contains(name)).collect(Collectors.toUnmodifiableSet());
    }

    private static void register(Jinjava jinjava, String name, String method, Class<?> parameter) {
        jinjava.registerFunction(new ELFunctionDefinition("", name, TemplateFunctions.class, method, parameter));
        Context globals = jinjava.getGlobalContext();
        globals.put(name, FUNCTION_MARKER);
    }
}
