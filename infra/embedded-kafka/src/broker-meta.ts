import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

interface MetaFile {
  clusterId: string;
  nextProducerId: number;
}

/**
 * Broker identity that must survive restarts: the cluster id, and the producer-id counter so an
 * idempotent producer never receives an id that an earlier run handed out.
 */
export class BrokerMeta {
  private data: MetaFile;
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'meta.json');
    if (fs.existsSync(this.file)) {
      this.data = JSON.parse(fs.readFileSync(this.file, 'utf8')) as MetaFile;
    } else {
      this.data = { clusterId: randomBytes(16).toString('base64url').slice(0, 22), nextProducerId: 1000 };
      this.save();
    }
  }

  get clusterId(): string {
    return this.data.clusterId;
  }

  allocateProducerId(): number {
    const id = this.data.nextProducerId;
    this.data.nextProducerId = id + 1;
    this.save();
    return id;
  }

  private save(): void {
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.data));
    const fd = fs.openSync(tmp, 'r');
    fs.fdatasyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(tmp, this.file);
  }
}
