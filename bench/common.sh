# Sourced by bench/run and bench/train: builds what the benchmarks run (unless BENCH_NO_BUILD is set) and defines
# java_run, which starts the bench jar with PyTorch on $threads threads. Expects $bench, $root, $results and say().
source "$root/scripts/jdk.sh"
source "$root/scripts/native-memory.sh"
mvn_opts=(-q -B ${BENCH_MVN_OPTS:--o})
crucible_check_hugepages_setting || exit 2
say "$(crucible_hugepages_note)"

# Crucible's engine as the sources are now (installed so bench/pom.xml picks it up), then the bench jar.
if [ -z "${BENCH_NO_BUILD:-}" ]; then
  say "building the engines and what they need (mvnw install -pl engine-djl,engine-onnx -am; BENCH_NO_BUILD=1 skips)"
  "$mvnw" "${mvn_opts[@]}" install -DskipTests -pl engine-djl,engine-onnx -am >"$results/build.log" 2>&1 \
    || { cat "$results/build.log" >&2; say "the engine build failed"; exit 1; }
fi
jar="$bench/target/crucible-bench-0.1.0-SNAPSHOT-all.jar"
m2="${HOME}/.m2/repository/dev/crucible"
if [ ! -f "$jar" ] || [ -n "$(find "$bench/java" "$bench/pom.xml" "$m2/engine-djl" "$m2/engine-onnx" "$m2/engine-spi" "$m2/hf-format" \
      -newer "$jar" -type f -print -quit 2>/dev/null)" ]; then
  say "building the bench jar (bench/pom.xml)"
  "$mvnw" "${mvn_opts[@]}" -f "$bench/pom.xml" package -DskipTests >"$results/build.log" 2>&1 \
    || { cat "$results/build.log" >&2; say "the bench jar did not build"; exit 1; }
fi

# BENCH_JAVA_OPTS adds JVM options (bench/profile sets ONNX Runtime's profile file with it).
java_run() {
  GLIBC_TUNABLES="$(crucible_glibc_tunables)" "$JAVA_HOME/bin/java" -Xmx6g --enable-native-access=ALL-UNNAMED ${BENCH_JAVA_OPTS:-} \
    -Dai.djl.pytorch.num_threads="$threads" -Dcrucible.onnx.threads="$threads" \
    -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -Dorg.slf4j.simpleLogger.log.ai.djl.util.cuda.CudaUtils=error \
    -jar "$jar" "$@"
}
