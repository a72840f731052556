# shellcheck shell=bash disable=SC2154  # the variables are the sourcing script's (below)
# Sourced by bench/run and bench/postgres: the figures of a report (median_of, spread) and the
# writing of a section into docs/benchmarks.md (write_section). Function definitions only.
# Expects: $docs (docs/benchmarks.md), $machine (the machine, named if write_section creates
# $docs) and $script_name (bench/run or bench/postgres, the prefix of its message).

# built_tree: the commit measured (this tree's HEAD), with a note when the tree differs from it.
built_tree() {
  local dirty=
  git diff --quiet HEAD -- || dirty=" with uncommitted changes"
  echo "$(git rev-parse --short HEAD)$dirty"
}

# median_of: the median of the numbers on stdin.
median_of() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
spread() {  # "median (min-max)" of the numbers on stdin, with printf FORMAT
  sort -g | awk -v f="$1" '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf f " (" f "-" f ")", m, v[1], v[NR] }'
}

# write_section HEADING PLACE TEXT: rewrites $docs' section HEADING (up to the next "## "
# heading) with TEXT. Without that section, TEXT goes where PLACE says: "after ## X" puts it
# before the heading that follows section X, "before ## Y" before heading Y; failing that (or
# with PLACE empty) it is appended. Creates $docs, with its introduction, when missing.
write_section() {
  local after='' before=''
  case "$2" in
    "after "*) after=${2#after } ;;
    "before "*) before=${2#before } ;;
  esac
  mkdir -p docs
  if [ ! -f "$docs" ]; then
    cat >"$docs" <<TEXT
# Benchmarks

Figures from single runs of the scripts in \`bench/\`. They are ratios and orders of magnitude
measured in one run on a shared machine, to be read as such; no test asserts them. Each section
names the machine and the date of its run. This file was first written on
$machine, $(date -u +%Y-%m-%d).
TEXT
  fi
  local has_section=0
  grep -qx "$1" "$docs" && has_section=1
  SECTION="$3" awk -v heading="$1" -v after="$after" -v before="$before" -v done="$has_section" '
    BEGIN { section = ENVIRON["SECTION"] }
    $0 == heading { print section; skipping = 1; next }
    skipping && /^## / { skipping = 0; print "" }
    /^## / && !done && (after_it || $0 == before) { print section; print ""; done = 1 }
    /^## / { after_it = ($0 == after) }
    !skipping { print }
    END { if (!done) { print ""; print section } }
  ' "$docs" >"$docs.new"
  mv "$docs.new" "$docs"
  echo "$script_name: wrote the ${1#\#\# } section of $docs" >&2
}
