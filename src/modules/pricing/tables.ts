export interface PricingTables {
  price_visibility: {
    business_id: number;
    customer_user_id: number;
    family: string;
    hidden: boolean;
    updated_at: Date;
  };
}
