#!/bin/sh
# The compose Kafka's ACLs: one principal per service, each writing only its own topic (plus the
# operator audit topic where it records operators' actions, and its consumer groups' dead letters)
# and reading what it consumes. Run once by docker-compose.yml's kafka-acls container, as the
# broker's super user, before any service starts; adding an ACL that exists changes nothing.
#
# The grants below are packages/platform/src/kafka/principals.ts, which the devstack's embedded
# broker enforces too; infra/docker/test/compose.test.ts fails when the two differ.
#   grant PRINCIPAL produce|consume|describe|create|groups NAME...   (NAME* = every name with that prefix)
set -eu

config=/tmp/kafka-acls.properties
umask 077
printf 'security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="broker" password="%s";\n' "$SMM_KAFKA_BROKER_PASSWORD" > "$config"

acl() {
  /opt/kafka/bin/kafka-acls.sh --bootstrap-server kafka:9092 --command-config "$config" --add "$@" > /dev/null
}

grant() {
  principal=$1
  kind=$2
  shift 2
  case $kind in
    produce) resource=--topic; set -- --operation Write -- "$@" ;;
    consume) resource=--topic; set -- --operation Read -- "$@" ;;
    describe) resource=--topic; set -- --operation Describe -- "$@" ;;
    create) resource=--topic; set -- --operation Create -- "$@" ;;
    groups) resource=--group; set -- --operation Read --operation Delete -- "$@" ;;
    *) echo "kafka-acls: unknown grant $kind" >&2; exit 2 ;;
  esac
  operations=''
  while [ "$1" != -- ]; do operations="$operations $1"; shift; done
  shift
  literal=''
  prefixed=''
  for name in "$@"; do
    case $name in
      *\*) prefixed="$prefixed $resource ${name%\*}" ;;
      *) literal="$literal $resource $name" ;;
    esac
  done
  # Names are topic and group names (no spaces), so word splitting here is safe.
  # shellcheck disable=SC2086
  if [ -n "$literal" ]; then acl --allow-principal "User:$principal" $operations --resource-pattern-type literal $literal; fi
  # shellcheck disable=SC2086
  if [ -n "$prefixed" ]; then acl --allow-principal "User:$principal" $operations --resource-pattern-type prefixed $prefixed; fi
  echo "kafka-acls: $principal may $kind $*"
}

grant auth produce auth.events.v1 audit.events.v1 'dlq.auth*'
grant auth consume catalog.events.v1 audit.events.v1
grant auth create auth.events.v1 audit.events.v1 catalog.events.v1 'dlq.auth*'
grant auth groups 'auth*'
grant catalog produce catalog.events.v1 audit.events.v1
grant catalog create catalog.events.v1 audit.events.v1
grant wallet produce wallet.events.v1 audit.events.v1 'dlq.wallet*'
grant wallet consume auth.events.v1 catalog.events.v1 scheduler.events.v1 wallet.events.v1 order.events.v1
grant wallet create wallet.events.v1 audit.events.v1 auth.events.v1 catalog.events.v1 scheduler.events.v1 order.events.v1 'dlq.wallet*'
grant wallet groups 'wallet*'
grant order produce order.events.v1 audit.events.v1 'dlq.order*'
grant order consume catalog.events.v1 wallet.events.v1 scheduler.events.v1
grant order create order.events.v1 audit.events.v1 catalog.events.v1 wallet.events.v1 scheduler.events.v1 'dlq.order*'
grant order groups 'order*'
grant scheduler produce scheduler.events.v1 'dlq.scheduler*'
grant scheduler consume order.events.v1 wallet.events.v1
grant scheduler create scheduler.events.v1 order.events.v1 wallet.events.v1 'dlq.scheduler*'
grant scheduler groups 'scheduler*'
grant fulfillment produce fulfillment.events.v1 audit.events.v1 'dlq.fulfillment*'
grant fulfillment consume order.events.v1
grant fulfillment create fulfillment.events.v1 audit.events.v1 order.events.v1 'dlq.fulfillment*'
grant fulfillment groups 'fulfillment*'
grant support produce support.events.v1 audit.events.v1
grant support create support.events.v1 audit.events.v1
grant bff consume wallet.events.v1 order.events.v1 support.events.v1
grant bff describe 'dlq.*'
grant bff groups 'bff-live-*'
echo 'kafka-acls: done'
