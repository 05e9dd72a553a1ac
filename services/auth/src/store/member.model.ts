import { Schema } from 'mongoose';
import type { Connection, Model } from 'mongoose';
import { type MemberRole, type OperatorArea, type RestrictionLevel, memberRoles, operatorAreas, restrictionLevels } from '@smm/contracts';
import type { SealedSecret } from '../security/secret-box.ts';
import { modelOn } from '@smm/platform';

export type SignUpProvider = 'local' | 'naver' | 'kakao';

/**
 * One member. Optional unique fields are left absent (never null) and their indexes are sparse, so
 * any number of members may lack an e-mail, phone, referral code, API key or social link.
 */
export type MemberDoc = {
  _id: string;
  loginId: string;
  loginKey: string;
  passwordHash?: string;
  email?: string;
  emailKey?: string;
  phoneNumber?: string;
  role: MemberRole;
  provider: SignUpProvider;
  naverId?: string;
  kakaoId?: string;
  registerWhere?: string;
  referredBy?: string;
  referralCode?: string;
  apiKeyHash?: string;
  apiKeyPrefix?: string;
  apiKeyIssuedAt?: Date;
  passwordChangedAt?: Date;
  /**
   * Goes up on a password change and on "log out everywhere": access tokens carry the version they
   * were issued under (`ver`) and the BFF refuses older ones. Absent = 0.
   */
  tokenVersion?: number;
  /** Absent = active. A banned member's tokens are refused everywhere and it cannot log in. */
  status?: 'active' | 'banned';
  /**
   * The restriction an operator set (issue 12), absent when none; its history is in
   * `member_restrictions`. A suspension past its `until` no longer counts (domain/restriction-rules).
   */
  restriction?: { level: RestrictionLevel; reason: string; until?: Date | null; setBy: string; setAt: Date };
  /**
   * Issue 41 — a staff member's console areas (absent: every area, as staff had before areas
   * existed); ignored for admins, who have all.
   */
  areas?: OperatorArea[];
  /** An operator account an admin disabled: it cannot sign in and its sessions are over. */
  disabledAt?: Date;
  /**
   * The operator's second factor: the TOTP secret sealed (never in the clear), the last step a
   * code was accepted for (a code is good once: replay refused), and the unused recovery codes'
   * HMACs (a used one is pulled out).
   */
  twoFactor?: { secret: SealedSecret; enabledAt: Date; lastStep: number; recoveryHashes: string[] };
  createdAt: Date;
};

const memberSchema = new Schema<MemberDoc>(
  {
    _id: { type: String, required: true },
    loginId: { type: String, required: true },
    loginKey: { type: String, required: true, unique: true },
    passwordHash: { type: String },
    email: { type: String },
    emailKey: { type: String, unique: true, sparse: true },
    phoneNumber: { type: String, unique: true, sparse: true },
    role: { type: String, required: true, enum: memberRoles },
    provider: { type: String, required: true, enum: ['local', 'naver', 'kakao'] },
    naverId: { type: String, unique: true, sparse: true },
    kakaoId: { type: String, unique: true, sparse: true },
    registerWhere: { type: String },
    referredBy: { type: String },
    referralCode: { type: String, unique: true, sparse: true },
    apiKeyHash: { type: String, unique: true, sparse: true },
    apiKeyPrefix: { type: String },
    apiKeyIssuedAt: { type: Date },
    passwordChangedAt: { type: Date },
    tokenVersion: { type: Number },
    status: { type: String, enum: ['active', 'banned'] },
    restriction: {
      type: new Schema(
        {
          level: { type: String, required: true, enum: restrictionLevels },
          reason: { type: String, required: true },
          until: { type: Date, default: null },
          setBy: { type: String, required: true },
          setAt: { type: Date, required: true },
        },
        { _id: false },
      ),
      default: undefined,
    },
    areas: { type: [{ type: String, enum: operatorAreas }], default: undefined },
    disabledAt: { type: Date },
    twoFactor: {
      type: new Schema(
        {
          secret: { type: new Schema({ iv: String, tag: String, data: String }, { _id: false }), required: true },
          enabledAt: { type: Date, required: true },
          lastStep: { type: Number, required: true },
          recoveryHashes: { type: [String], default: [] },
        },
        { _id: false },
      ),
      default: undefined,
    },
    createdAt: { type: Date, required: true },
  },
  { collection: 'members', versionKey: false },
);
// The operators' member list without a query: newest first.
memberSchema.index({ createdAt: -1 });
// The operators' list (issue 41): few rows among many members.
memberSchema.index({ role: 1 });

export function memberModel(connection: Connection): Model<MemberDoc> {
  return modelOn(connection, 'Member', memberSchema);
}

/** Which unique field a duplicate-key error on `members` is about (from the index it names). */
export function duplicateMemberField(error: unknown): 'loginKey' | 'emailKey' | 'phoneNumber' | 'naverId' | 'kakaoId' | 'referralCode' | 'apiKeyHash' | null {
  if (typeof error !== 'object' || error === null) return null;
  const record = error as { code?: unknown; keyPattern?: Record<string, unknown>; message?: unknown; errmsg?: unknown; writeErrors?: unknown };
  const fields = ['loginKey', 'emailKey', 'phoneNumber', 'naverId', 'kakaoId', 'referralCode', 'apiKeyHash'] as const;
  if (record.keyPattern) {
    const field = fields.find((f) => f in record.keyPattern!);
    if (field) return field;
  }
  const text = `${String(record.message ?? '')} ${String(record.errmsg ?? '')}`;
  return fields.find((f) => text.includes(`index: ${f}_1`)) ?? null;
}
