"""kafka-python over SASL/PLAIN (handshake v0, bare token): produces one message and prints
{"offset": N} or {"error": "<exception class>"} as one JSON line.

  BROKERS TOPIC USERNAME PASSWORD
"""
import json
import sys

from kafka import KafkaProducer

brokers, topic, username, password = sys.argv[1:5]
try:
    producer = KafkaProducer(bootstrap_servers=brokers, security_protocol='SASL_PLAINTEXT', sasl_mechanism='PLAIN',
                             sasl_plain_username=username, sasl_plain_password=password, acks='all',
                             request_timeout_ms=5000, max_block_ms=5000, retries=0)
    offset = producer.send(topic, value=b'from-kafka-python').get(timeout=10).offset
    producer.close(timeout=5)
    print(json.dumps({'offset': offset}), flush=True)
except Exception as e:  # the class name is what the test compares
    print(json.dumps({'error': type(e).__name__}), flush=True)
