"""kafka-python producer: sends `count` messages `<prefix>-<i>` (key k<i>) with acks=all and prints
the release kafka-python inferred from the broker's ApiVersions answer."""
import json
import sys

from kafka import KafkaProducer

brokers, topic, prefix, count, compression = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
producer = KafkaProducer(
    bootstrap_servers=brokers,
    acks='all',
    compression_type=None if compression == 'none' else compression,
    request_timeout_ms=10000,
)
futures = [producer.send(topic, key=b'k%d' % i, value=('%s-%d' % (prefix, i)).encode()) for i in range(count)]
producer.flush(timeout=15)
offsets = [f.get(timeout=10).offset for f in futures]
print(json.dumps({'apiVersion': list(producer.config['api_version']), 'sent': count, 'offsets': offsets}), flush=True)
producer.close(timeout=5)
