# Sourced by the project's scripts: exports JAVA_HOME pointing at a JDK 25 or newer, or stops with a message
# saying what is missing. Honours a JAVA_HOME that is already 25+. Defines mvnw, the checkout's Maven Wrapper, which
# fetches the pinned Maven from Maven Central on first use: a JDK is all a machine needs.
java_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'; }
find_jdk() {
  local candidates=("${JAVA_HOME:-}" /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/temurin-25* /usr/lib/jvm/java-25* \
    /usr/lib/jvm/jdk-25* /usr/lib/jvm/*)
  local dir major
  for dir in "${candidates[@]}"; do
    [ -n "$dir" ] && [ -x "$dir/bin/java" ] && [ -x "$dir/bin/javac" ] || continue
    major="$(java_major "$dir")"
    if [ -n "$major" ] && [ "$major" -ge 25 ] 2>/dev/null; then echo "$dir"; return 0; fi
  done
  return 1
}
if ! JAVA_HOME="$(find_jdk)"; then
  echo "Crucible needs a JDK 25 or newer (javac included). None was found in JAVA_HOME or /usr/lib/jvm." >&2
  echo "Install one (e.g. Temurin 25) and set JAVA_HOME to it." >&2
  exit 1
fi
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
mvnw="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/mvnw"
