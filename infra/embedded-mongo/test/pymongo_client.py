"""pymongo (Debian python3-pymongo, 3.x) against the embedded server: CRUD, an index, a transaction.

Usage: /usr/bin/python3 pymongo_client.py <mongodb-uri>. Prints one JSON line with results.
"""
import json
import sys

import pymongo
from pymongo import MongoClient
from pymongo.errors import DuplicateKeyError, OperationFailure

uri = sys.argv[1]
client = MongoClient(uri, serverSelectionTimeoutMS=5000)
db = client.get_database("py")
out = {"pymongo": pymongo.version}

items = db.items
items.drop()
items.create_index([("sku", pymongo.ASCENDING)], unique=True, name="sku_unique")
items.insert_one({"sku": "a", "qty": 1, "price": 2.5})
items.insert_many([{"sku": "b", "qty": 2}, {"sku": "c", "qty": 3}])
try:
    items.insert_one({"sku": "a"})
    out["dup"] = None
except DuplicateKeyError as e:
    out["dup"] = e.code
items.update_one({"sku": "b"}, {"$inc": {"qty": 40}})
items.update_one({"sku": "z"}, {"$set": {"qty": 9}, "$setOnInsert": {"new": True}}, upsert=True)
items.delete_one({"sku": "c"})
out["docs"] = [{k: v for k, v in d.items() if k != "_id"} for d in items.find({}).sort("sku", 1)]
out["indexes"] = sorted(ix["name"] for ix in items.list_indexes())
out["count"] = items.count_documents({"qty": {"$gte": 2}})
out["fam"] = items.find_one_and_update({"sku": "a"}, {"$inc": {"qty": 1}}, return_document=pymongo.ReturnDocument.AFTER)["qty"]

acct = db.accounts
acct.drop()
acct.insert_many([{"_id": "x", "bal": 100}, {"_id": "y", "bal": 0}])
with client.start_session() as s:
    with s.start_transaction():
        acct.update_one({"_id": "x"}, {"$inc": {"bal": -30}}, session=s)
        acct.update_one({"_id": "y"}, {"$inc": {"bal": 30}}, session=s)
        out["inside_outside_view"] = acct.find_one({"_id": "y"})["bal"]
with client.start_session() as s:
    try:
        with s.start_transaction():
            acct.update_one({"_id": "x"}, {"$inc": {"bal": -1000}}, session=s)
            raise RuntimeError("rollback")
    except RuntimeError:
        pass
out["balances"] = {d["_id"]: d["bal"] for d in acct.find({})}
print(json.dumps(out))
