export { backup, restore, type BackupOptions, type Manifest } from './backup.ts';
