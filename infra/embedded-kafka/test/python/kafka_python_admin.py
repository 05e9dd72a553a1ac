"""kafka-python admin client: topic and broker configs, a group's committed offsets (OffsetFetch
for all partitions) and the group list, as one JSON line."""
import json
import sys

from kafka import KafkaAdminClient
from kafka.admin import ConfigResource, ConfigResourceType

brokers, topic, group = sys.argv[1], sys.argv[2], sys.argv[3]
admin = KafkaAdminClient(bootstrap_servers=brokers, request_timeout_ms=10000)
answers = admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, topic), ConfigResource(ConfigResourceType.BROKER, '0')])
configs = {}
for answer in answers:
    for error, message, rtype, name, entries in answer.resources:
        configs['%d:%s' % (rtype, name)] = {'error': error, 'entries': {e[0]: e[1] for e in entries}}
offsets = admin.list_consumer_group_offsets(group)
print(json.dumps({
    'configs': configs,
    'offsets': {'%s:%d' % (tp.topic, tp.partition): om.offset for tp, om in offsets.items()},
    'groups': [list(g) for g in admin.list_consumer_groups()],
}), flush=True)
admin.close()
