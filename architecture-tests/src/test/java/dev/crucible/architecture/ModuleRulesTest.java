package dev.crucible.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Arrays;
import java.util.stream.Stream;

/** The module table of {@code docs/architecture.md}, one rule per boundary, each with its reason. */
@AnalyzeClasses(packages = "dev.crucible", importOptions = ImportOption.DoNotIncludeTests.class)
class ModuleRulesTest {

    @ArchTest
    static final ArchRule kernelIsALeaf = usesOnly("dev.crucible.kernel", "java..")
            .because("every module may use the kernel (Outcome and Refusal, the JSON value reader, Python's text"
                    + " rules), so it depends on nothing but the JDK");

    @ArchTest
    static final ArchRule domainIsPlainJava = usesOnly("dev.crucible.domain", "dev.crucible.kernel..", "java..")
            .because("the domain holds the rules and must stay free of frameworks, I/O libraries and engines");

    @ArchTest
    static final ArchRule applicationUsesOnlyDomainRuntimeSpiAndPureLibraries = usesOnly("dev.crucible.application",
            "dev.crucible.domain..", "dev.crucible.kernel..", "dev.crucible.runtime..", "dev.crucible.engine.spi..",
            "dev.crucible.hf..", "java..", "net.fellbaum.jemoji..", "com.google.re2j..")
            .because("use cases are framework-free and engine-agnostic: they drive the runtime and the engine SPI"
                    + " through ports; the only libraries of their own are jemoji, for feedback's emoji names, and"
                    + " RE2/J, which runs annotation specs' patterns in linear time");

    @ArchTest
    static final ArchRule packagesAreNamedForWhatTheyHold = noClasses()
            .should().resideInAnyPackage("..common..", "..util..", "..utils..", "..helper..", "..helpers..",
                    "..misc..", "..json..", "..store..", "..request..", "..service..", "..services..", "..dto..",
                    "..dtos..")
            .because("a package says which feature or concern it holds (STYLE 1): inside a module, packages are"
                    + " features (model, job, feedback), never technical kinds (service, dto); a technical grab-bag"
                    + " (common, util, json, store, request) collects unrelated code and hides where a rule lives");

    @ArchTest
    static final ArchRule runtimeUsesOnlySpiFormatAndPureLibraries = usesOnly("dev.crucible.runtime",
            "dev.crucible.engine.spi..", "dev.crucible.hf..", "dev.crucible.kernel..", "java..",
            // Jinjava and its bundled EL, for rendering models' Jinja chat templates
            "com.hubspot.jinjava..", "jinjava.javax.el..",
            // Lucene's automaton package, for the regex DFAs of structured outputs
            "org.apache.lucene.util..")
            .because("the LLM runtime is engine-agnostic and knows no use case, port or storage: it turns prompts into"
                    + " tokens and tokens into text through hf-format's tokenizer and drives engines through engine-spi,"
                    + " so it carries only the SPI, the model-folder reader, the kernel and small pure libraries"
                    + " (Jinjava, Lucene's automata), never the domain: its training code takes inputs of its own that"
                    + " the application builds from jobs");

    @ArchTest
    static final ArchRule adaptersDoNotUseTheRuntime = neverUses("dev.crucible.adapters", "dev.crucible.runtime..")
            .because("adapters speak to use cases only; the runtime is the application's business");

    @ArchTest
    static final ArchRule engineSpiIsPlainJava = usesOnly("dev.crucible.engine.spi", "dev.crucible.hf..", "java..")
            .because("every engine plugin implements the SPI, so it carries nothing but the JDK and the shared "
                    + "Hugging Face model-folder reader that hands engines the parsed config and weights");

    @ArchTest
    static final ArchRule hfFormatIsJavaAndJson = usesOnly("dev.crucible.hf", "java..", "com.fasterxml.jackson..")
            .because("engines, the runtime and the command line all read model folders through it, so it carries "
                    + "nothing but the JDK and a JSON parser");

    @ArchTest
    static final ArchRule enginePluginsSeeOnlyTheSpi = noClasses()
            .that().resideInAnyPackage("dev.crucible.engine.djl..", "dev.crucible.engine.onnx..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.crucible.domain..", "dev.crucible.application..",
                    "dev.crucible.adapters..", "dev.crucible.server..", "io.micronaut..")
            .because("engine plugins are plugins: they know the SPI and their own runtime, nothing of the service");

    @ArchTest
    static final ArchRule nobodyImportsAnEnginePlugin = noClasses()
            .that().resideOutsideOfPackages("dev.crucible.engine.djl..", "dev.crucible.engine.onnx..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.crucible.engine.djl..", "dev.crucible.engine.onnx..")
            .because("engines are found through ServiceLoader and used through engine-spi only");

    @ArchTest
    static final ArchRule httpAdapterDoesNotUsePersistence = neverUses("dev.crucible.adapters.http",
            "dev.crucible.adapters.persistence..")
            .because("adapters never import each other; they meet only through the application's ports");

    @ArchTest
    static final ArchRule persistenceAdapterDoesNotUseHttp = neverUses("dev.crucible.adapters.persistence",
            "dev.crucible.adapters.http..")
            .because("adapters never import each other; they meet only through the application's ports");

    @ArchTest
    static final ArchRule adaptersDoNotImportEachOther = slices().matching("dev.crucible.adapters.(*)..")
            .should().notDependOnEachOther()
            .because("adapters never import each other (http, persistence, dataset); they meet only through the"
                    + " application's ports");

    @ArchTest
    static final ArchRule onlyTheServerKnowsTheServer = noClasses()
            .that().resideOutsideOfPackage("dev.crucible.server..")
            .should().dependOnClassesThat().resideInAPackage("dev.crucible.server..")
            .because("the server module wires everything; nothing may depend on the wiring");

    @ArchTest
    static final ArchRule coreKnowsNoFrameworkOrJdbc = noClasses()
            .that().resideInAnyPackage("dev.crucible.kernel..", "dev.crucible.domain..", "dev.crucible.runtime..",
                    "dev.crucible.application..")
            .should().dependOnClassesThat().resideInAnyPackage("io.micronaut..", "jakarta..", "javax..", "java.sql..",
                    "ai.djl..", "ai.onnxruntime..", "org.slf4j..")
            .because("domain, runtime and application never import Micronaut, JDBC, DJL or ONNX Runtime");

    @ArchTest
    static final ArchRule controllersLiveInTheHttpAdapter = classes()
            .that().areAnnotatedWith("io.micronaut.http.annotation.Controller")
            .should().resideInAPackage("dev.crucible.adapters.http..")
            .because("routes, wire types and mapping belong to the HTTP adapter");

    @ArchTest
    static final ArchRule theJsonSchemaAdapterSeesOnlyItsPortAndItsLibrary = usesOnly(
            "dev.crucible.adapters.jsonschema", "dev.crucible.application.feedback..", "com.networknt.schema..",
            "tools.jackson..", "java..")
            .because("it implements the application's JsonSchemaValidator port with networknt's validator, and "
                    + "nothing else");

    @ArchTest
    static final ArchRule theTribuoAdapterSeesOnlyItsPortsAndItsLibraries = usesOnly("dev.crucible.adapters.tribuo",
            "dev.crucible.application.reward..", "dev.crucible.domain.reward..", "org.tribuo..", "ai.onnxruntime..",
            "ai.onnx.proto..", "java..")
            .because("it implements the application's RewardTrainer and RewardScorer ports with Tribuo (features, "
                    + "logistic regression, the ONNX exporter) and ONNX Runtime, and nothing else");

    @ArchTest
    static final ArchRule theS3AdapterSeesOnlyItsPortAndTheAwsSdk = usesOnly("dev.crucible.adapters.s3",
            "dev.crucible.application.blob..", "software.amazon.awssdk..", "java..")
            .because("it implements the application's BlobStore port with the AWS SDK for Java v2, and nothing else");

    /** The classes of {@code module} (a package) depend only on classes of its own and of {@code allowed}. */
    private static ArchRule usesOnly(String module, String... allowed) {
        String[] packages = Stream.concat(Stream.of(module + ".."), Arrays.stream(allowed)).toArray(String[]::new);
        return classes().that().resideInAPackage(module + "..").should().onlyDependOnClassesThat()
                .resideInAnyPackage(packages);
    }

    /** No class of {@code module} (a package) depends on a class of {@code forbidden}. */
    private static ArchRule neverUses(String module, String forbidden) {
        return noClasses().that().resideInAPackage(module + "..").should().dependOnClassesThat()
                .resideInAPackage(forbidden);
    }
}
