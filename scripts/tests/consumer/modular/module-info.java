/**
 * The consumer as a named module, for the module-path run of scripts/tests/consumer-check.sh:
 * it reads only what org.robostream exports (and the modules it requires transitively).
 */
module consumer {
  requires org.robostream;
}
