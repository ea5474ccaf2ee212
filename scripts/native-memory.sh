# Sourced by the launcher and the benches: crucible_glibc_tunables prints the GLIBC_TUNABLES a Crucible JVM runs
# with: the caller's, plus glibc.malloc.hugetlb=1 when the weights should sit on huge pages (crucible_hugepages_wanted)
# and the caller did not name it. With it glibc asks for transparent huge pages (madvise) on the blocks it maps, which
# is where ONNX Runtime keeps the weights; a decode step streams all of them, and on a kernel whose setting is
# "madvise" they otherwise sit on 4 KiB pages (docs/decisions.md, "Weights on huge pages"). Other C libraries ignore
# the variable.
# With huge pages it also fixes glibc.malloc.mmap_threshold at 2 MiB (unless the caller named it). glibc otherwise
# raises that threshold to the size of each mapped block it frees, up to 32 MiB, and ONNX Runtime frees each weight's
# loaded copy once it has packed it; the weights packed after that landed inside the loading thread's arena, which
# glibc does not ask huge pages for (only its main heap and its own mappings). Which did depended on the order of the
# frees: a server held 0.93 or 1.62 GB of its 1.98 GB of packed F32 weights on huge pages from one start to the next,
# and 1.70–1.72 GB in every start with the threshold fixed (docs/decisions.md, "Every weight block its own mapping").
crucible_glibc_tunables() {
  local tunables="${GLIBC_TUNABLES:-}"
  if ! crucible_tunables_name_hugetlb && crucible_hugepages_wanted; then
    tunables="${tunables:+$tunables:}glibc.malloc.hugetlb=1"
    [[ "$tunables" == *glibc.malloc.mmap_threshold* ]] || tunables="$tunables:glibc.malloc.mmap_threshold=2097152"
  fi
  echo "$tunables"
}

# Whether the caller's GLIBC_TUNABLES name glibc.malloc.hugetlb themselves, which then decide over everything here.
crucible_tunables_name_hugetlb() {
  [[ "${GLIBC_TUNABLES:-}" == *glibc.malloc.hugetlb* ]]
}

# Whether the weights ask for huge pages. CRUCIBLE_HUGEPAGES=on or off says so; auto (the default) asks unless the
# kernel's DAMON samples physical memory: on a virtual machine where it did, with the weights on huge pages up to a
# quarter of the decode steps took over 1.5 times the others, on 4 KiB pages up to one in twelve
# (docs/decisions.md, "Huge pages under DAMON"). $1 is the sysfs root, /sys unless given (tests give their own).
crucible_hugepages_wanted() {
  case "${CRUCIBLE_HUGEPAGES:-auto}" in
    on) return 0 ;;
    off) return 1 ;;
    *) ! crucible_damon_samples_physical "${1:-/sys}" ;;
  esac
}

# Refuses a CRUCIBLE_HUGEPAGES other than auto, on or off, naming it, so a typo does not quietly mean auto.
crucible_check_hugepages_setting() {
  case "${CRUCIBLE_HUGEPAGES:-auto}" in
    auto | on | off) return 0 ;;
    *) echo "crucible: CRUCIBLE_HUGEPAGES must be auto, on or off, not '$CRUCIBLE_HUGEPAGES'" >&2; return 1 ;;
  esac
}

# Whether a DAMON monitor of physical memory runs under sysfs root $1: a kdamond that is on with a context of the
# paddr operations (the admin interface), or one of the modules that run one (DAMON_RECLAIM, DAMON_LRU_SORT,
# DAMON_STAT). Where the files cannot be read (no DAMON, or not root), no.
crucible_damon_samples_physical() {
  local sys="$1" kdamond module
  for kdamond in "$sys"/kernel/mm/damon/admin/kdamonds/[0-9]*; do
    [ "$(cat "$kdamond/state" 2>/dev/null)" = on ] || continue
    cat "$kdamond"/contexts/[0-9]*/operations 2>/dev/null | grep -qx paddr && return 0
  done
  for module in damon_reclaim damon_lru_sort damon_stat; do
    [ "$(cat "$sys/module/$module/parameters/enabled" 2>/dev/null)" = Y ] && return 0
  done
  return 1
}

# One line saying whether the weights ask for huge pages and why, for the launcher and the benches to print. Reads
# DAMON's state at most once: in auto, huge pages not wanted means a monitor was found.
crucible_hugepages_note() {
  local answer=no why="CRUCIBLE_HUGEPAGES=${CRUCIBLE_HUGEPAGES:-auto}"
  if crucible_tunables_name_hugetlb; then
    why="GLIBC_TUNABLES names glibc.malloc.hugetlb"
    [[ "$GLIBC_TUNABLES" == *glibc.malloc.hugetlb=1* ]] && answer=yes
  elif crucible_hugepages_wanted; then
    answer=yes
  elif [ "${CRUCIBLE_HUGEPAGES:-auto}" = auto ]; then
    why="$why, and DAMON samples this machine's physical memory"
  fi
  echo "weights on huge pages: $answer ($why)"
}
