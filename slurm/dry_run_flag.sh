# The launchers' one argument, sourced by each with "$@": --dry-run sets dry_run=1 (print what
# would run, submit nothing); no argument leaves it 0; anything else is a usage error (exit 2).
dry_run=0
case "${1:-}" in
  --dry-run) dry_run=1 ;;
  "") ;;
  *) echo "usage: $0 [--dry-run]" >&2; exit 2 ;;
esac
