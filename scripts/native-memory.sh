# Sourced by the launcher and the benches: crucible_glibc_tunables prints the GLIBC_TUNABLES a Crucible JVM runs
# with: the caller's, plus glibc.malloc.hugetlb=1 unless they name it or CRUCIBLE_NO_HUGEPAGES is set. With it glibc
# asks for transparent huge pages (madvise) on the blocks it maps, which is where ONNX Runtime keeps the weights; a
# decode step streams all of them, and on this kernel's "madvise" setting they otherwise sit on 4 KiB pages
# (docs/decisions.md, "Weights on huge pages"). Other C libraries ignore the variable.
crucible_glibc_tunables() {
  local tunables="${GLIBC_TUNABLES:-}"
  if [ -z "${CRUCIBLE_NO_HUGEPAGES:-}" ] && [[ "$tunables" != *glibc.malloc.hugetlb* ]]; then
    tunables="${tunables:+$tunables:}glibc.malloc.hugetlb=1"
  fi
  echo "$tunables"
}
