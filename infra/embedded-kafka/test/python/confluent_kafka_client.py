"""confluent-kafka (librdkafka): one phase per invocation, each printing one JSON line.

  produce BROKERS TOPIC PREFIX COUNT       zstd + idempotent producer
  produce-at BROKERS TOPIC TS...           one message per timestamp, each its own batch
  consume BROKERS TOPIC GROUP COUNT        group member until COUNT messages (or 20 s), commits
  offsets BROKERS TOPIC GROUP TS           committed, watermarks and offsets_for_times of partition 0
  admin BROKERS TOPIC                      describe_configs of the topic and broker 0; a refused config
"""
import json
import sys
import time

from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, ConfigResource, NewTopic

phase, brokers = sys.argv[1], sys.argv[2]


def out(event):
    print(json.dumps(event), flush=True)


if phase == 'produce':
    topic, prefix, count = sys.argv[3], sys.argv[4], int(sys.argv[5])
    p = Producer({'bootstrap.servers': brokers, 'compression.type': 'zstd', 'enable.idempotence': True, 'linger.ms': 5})
    errors = []
    for i in range(count):
        p.produce(topic, key=b'k%d' % i, value=('%s-%d' % (prefix, i)).encode(), on_delivery=lambda err, msg: err and errors.append(str(err)))
    left = p.flush(15)
    out({'sent': count, 'unflushed': left, 'errors': errors})
elif phase == 'produce-at':
    topic, stamps = sys.argv[3], [int(t) for t in sys.argv[4:]]
    p = Producer({'bootstrap.servers': brokers, 'linger.ms': 0})
    for ts in stamps:
        p.produce(topic, value=b'at-%d' % ts, partition=0, timestamp=ts)
        p.flush(10)
    out({'sent': len(stamps)})
elif phase == 'consume':
    topic, group, count = sys.argv[3], sys.argv[4], int(sys.argv[5])
    c = Consumer({'bootstrap.servers': brokers, 'group.id': group, 'auto.offset.reset': 'earliest', 'enable.auto.commit': False,
                  'session.timeout.ms': 6000, 'heartbeat.interval.ms': 300, 'fetch.wait.max.ms': 200})
    c.subscribe([topic])
    values, errors, deadline = [], [], time.time() + 20
    while len(values) < count and time.time() < deadline:
        m = c.poll(0.2)
        if m is None:
            continue
        if m.error():
            if m.error().code() != KafkaError._PARTITION_EOF:
                errors.append(str(m.error()))
            continue
        values.append(m.value().decode())
    if values:
        c.commit(asynchronous=False)
    c.close()
    out({'values': values, 'errors': errors})
elif phase == 'offsets':
    topic, group, ts = sys.argv[3], sys.argv[4], int(sys.argv[5])
    c = Consumer({'bootstrap.servers': brokers, 'group.id': group})
    committed = c.committed([TopicPartition(topic, 0)], timeout=10)[0].offset
    low, high = c.get_watermark_offsets(TopicPartition(topic, 0), timeout=10)
    found = c.offsets_for_times([TopicPartition(topic, 0, ts)], timeout=10)[0]
    c.close()
    out({'committed': committed, 'low': low, 'high': high, 'forTime': found.offset, 'forTimeError': str(found.error) if found.error else None})
elif phase == 'admin':
    topic = sys.argv[3]
    a = AdminClient({'bootstrap.servers': brokers})
    described = {}
    for res, f in a.describe_configs([ConfigResource('topic', topic), ConfigResource('broker', '0')]).items():
        described[res.name] = {k: {'value': v.value, 'readOnly': v.is_read_only, 'source': v.source} for k, v in f.result(timeout=10).items()}
    refused = None
    for _, f in a.create_topics([NewTopic(topic + '-compacted', 1, 1, config={'cleanup.policy': 'compact'})]).items():
        try:
            f.result(timeout=10)
        except Exception as e:  # the KafkaException carrying the broker's error
            refused = {'code': e.args[0].code(), 'message': e.args[0].str()}
    out({'configs': described, 'refused': refused, 'topics': sorted(a.list_topics(timeout=10).topics)})
