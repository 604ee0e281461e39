export interface SkillsTables {
  /** A business's catalogue of skills: what drivers may hold and orders may need. */
  skills: {
    business_id: number;
    /** Lower-case letters, digits, - and _: what driver profiles and orders store. */
    code: string;
    label: string;
    created_at: Date;
    updated_at: Date;
  };
}
