"""kafka-python group member: prints each assignment and each message as a JSON line, commits
synchronously after every poll, and leaves the group cleanly when stdin closes."""
import json
import select
import sys

from kafka import ConsumerRebalanceListener, KafkaConsumer

brokers, topic, group = sys.argv[1], sys.argv[2], sys.argv[3]


def out(event):
    print(json.dumps(event), flush=True)


class Listener(ConsumerRebalanceListener):
    def on_partitions_revoked(self, revoked):
        out({'revoked': sorted(tp.partition for tp in revoked)})

    def on_partitions_assigned(self, assigned):
        out({'assigned': sorted(tp.partition for tp in assigned)})


consumer = KafkaConsumer(
    bootstrap_servers=brokers,
    group_id=group,
    auto_offset_reset='earliest',
    enable_auto_commit=False,
    session_timeout_ms=6000,
    heartbeat_interval_ms=300,
    max_poll_interval_ms=10000,
    fetch_max_wait_ms=200,
)
consumer.subscribe([topic], listener=Listener())
out({'apiVersion': list(consumer.config['api_version'])})
while True:
    records = consumer.poll(timeout_ms=200)
    for tp, messages in records.items():
        for m in messages:
            out({'partition': tp.partition, 'offset': m.offset, 'value': m.value.decode()})
    if records:
        consumer.commit()
        out({'committed': True})
    if select.select([sys.stdin], [], [], 0)[0] and not sys.stdin.read(1):
        break
consumer.close()
out({'closed': True})
