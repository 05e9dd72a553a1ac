import type { ClientSession, Connection, Model } from 'mongoose';
import { type MemberDoc, memberModel } from './member.model.ts';
import { type RestrictionRecordDoc, restrictionRecordModel } from './restriction.model.ts';

export type SocialProvider = 'naver' | 'kakao';

/** Reads and writes of members; the business rules live in use cases and the domain. */
export class MemberRepository {
  readonly model: Model<MemberDoc>;
  readonly restrictions: Model<RestrictionRecordDoc>;
  constructor(connection: Connection) {
    this.model = memberModel(connection);
    this.restrictions = restrictionRecordModel(connection);
  }

  /** Builds the unique indexes now, so duplicates are refused from the first request on. */
  async ensureIndexes(): Promise<void> {
    await this.model.createCollection().catch(() => undefined);
    await this.model.syncIndexes();
    await this.restrictions.createCollection().catch(() => undefined);
    await this.restrictions.syncIndexes();
  }

  findById(userId: string, session?: ClientSession): Promise<MemberDoc | null> {
    return this.model.findById(userId).session(session ?? null).lean<MemberDoc>().exec();
  }

  findByLoginKey(loginKey: string): Promise<MemberDoc | null> {
    return this.model.findOne({ loginKey }).lean<MemberDoc>().exec();
  }

  findBySocial(provider: SocialProvider, providerUserId: string): Promise<MemberDoc | null> {
    const filter = provider === 'naver' ? { naverId: providerUserId } : { kakaoId: providerUserId };
    return this.model.findOne(filter).lean<MemberDoc>().exec();
  }

  findByApiKeyHash(hash: string): Promise<MemberDoc | null> {
    return this.model.findOne({ apiKeyHash: hash }).lean<MemberDoc>().exec();
  }

  async phoneInUse(phoneNumber: string): Promise<boolean> {
    return (await this.model.exists({ phoneNumber })) !== null;
  }

  /** The member who owns a referral code, or null when no one does. */
  async referralCodeOwner(code: string, session: ClientSession): Promise<string | null> {
    const owner = await this.model.exists({ referralCode: code }).session(session);
    return owner === null ? null : String(owner._id);
  }

  /** Which of a new member's unique values are already taken (checked again by the indexes). */
  async taken(
    member: Pick<MemberDoc, 'loginKey' | 'emailKey' | 'phoneNumber' | 'naverId' | 'kakaoId'>,
    session: ClientSession,
  ): Promise<'loginKey' | 'emailKey' | 'phoneNumber' | 'naverId' | 'kakaoId' | null> {
    if (member.naverId !== undefined && (await this.model.exists({ naverId: member.naverId }).session(session))) return 'naverId';
    if (member.kakaoId !== undefined && (await this.model.exists({ kakaoId: member.kakaoId }).session(session))) return 'kakaoId';
    if (await this.model.exists({ loginKey: member.loginKey }).session(session)) return 'loginKey';
    if (member.emailKey !== undefined && (await this.model.exists({ emailKey: member.emailKey }).session(session))) return 'emailKey';
    if (member.phoneNumber !== undefined && (await this.model.exists({ phoneNumber: member.phoneNumber }).session(session))) return 'phoneNumber';
    return null;
  }

  async insert(member: MemberDoc, session: ClientSession): Promise<void> {
    await this.model.create([member], { session });
  }

  /** Also ends every session: tokens issued before the change no longer match the version. */
  async setPasswordHash(userId: string, passwordHash: string): Promise<number> {
    const updated = await this.model.findOneAndUpdate({ _id: userId }, { $set: { passwordHash, passwordChangedAt: new Date() }, $inc: { tokenVersion: 1 } }, { new: true }).lean();
    return updated?.tokenVersion ?? 0;
  }

  /** "Log out everywhere": the new token version, or null when the member does not exist. */
  async bumpTokenVersion(userId: string): Promise<number | null> {
    const updated = await this.model.findOneAndUpdate({ _id: userId }, { $inc: { tokenVersion: 1 } }, { new: true }).lean();
    return updated === null ? null : (updated.tokenVersion ?? 0);
  }

  async setApiKey(userId: string, hash: string, prefix: string, session: ClientSession): Promise<boolean> {
    const result = await this.model.updateOne(
      { _id: userId },
      { $set: { apiKeyHash: hash, apiKeyPrefix: prefix, apiKeyIssuedAt: new Date() } },
      { session },
    );
    return result.matchedCount === 1;
  }

  /** Sets the referral code only if the member has none (two concurrent issues yield one code). */
  async setReferralCodeIfNone(userId: string, code: string, session: ClientSession): Promise<boolean> {
    const result = await this.model.updateOne({ _id: userId, referralCode: { $exists: false } }, { $set: { referralCode: code } }, { session });
    return result.modifiedCount === 1;
  }

  /**
   * Replaces the restriction in force (null: lifted) and records the change, in the caller's
   * transaction. False when the member is gone.
   */
  async changeRestriction(userId: string, restriction: NonNullable<MemberDoc['restriction']> | null, record: RestrictionRecordDoc, session: ClientSession): Promise<boolean> {
    // Lifting a ban also clears the older `status` ban, so one restriction is ever in force.
    const update = restriction === null ? { $unset: { restriction: 1, status: 1 } } : { $set: { restriction }, $unset: { status: 1 } };
    const result = await this.model.updateOne({ _id: userId }, update, { session });
    if (result.matchedCount !== 1) return false;
    await this.restrictions.create([record], { session });
    return true;
  }

  /** A member's restriction changes, newest first. */
  restrictionHistory(userId: string, limit = 50): Promise<RestrictionRecordDoc[]> {
    return this.restrictions.find({ userId }).sort({ at: -1 }).limit(limit).lean<RestrictionRecordDoc[]>().exec();
  }
}
