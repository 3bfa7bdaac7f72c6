// The demo sign-in accounts, one per role (architecture §8). The server prints them at start and the e2e tests sign
// in with them; mobiles are valid Indian numbers for the mobile + one-time-code sign-in.
import type { TUserType } from '@sc/shared/roles';

export type DemoAccount = {
  email: string;
  user_type: TUserType;
  /** National number; stored as '+91-<mobile>'. */
  mobile: string;
  country: 'IN';
  first_name: string;
  last_name: string;
  /** Where the account sits, for the printed table. */
  placement: string;
};

export const DEMO_DIAL_CODE = '+91';

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    email: 'admin@demo.test',
    user_type: 'ADMIN',
    mobile: '9876500001',
    country: 'IN',
    first_name: 'Anjali',
    last_name: 'Rao',
    placement: 'no organization (sees everything)',
  },
  {
    email: 'subadmin@demo.test',
    user_type: 'SUB_ADMIN',
    mobile: '9876500002',
    country: 'IN',
    first_name: 'Vikram',
    last_name: 'Menon',
    placement: 'no organization (sees everything)',
  },
  {
    email: 'distributor@demo.test',
    user_type: 'DISTRIBUTOR_ADMIN',
    mobile: '9876500003',
    country: 'IN',
    first_name: 'Deepa',
    last_name: 'Kulkarni',
    placement: 'Arogya Health Network (distributor with sub-organizations)',
  },
  {
    email: 'orgadmin@demo.test',
    user_type: 'ORG_ADMIN',
    mobile: '9876500004',
    country: 'IN',
    first_name: 'Meera',
    last_name: 'Iyer',
    placement: "Sunrise Women's Clinic (stand-alone)",
  },
  {
    email: 'technician@demo.test',
    user_type: 'TECHNICIAN',
    mobile: '9876500005',
    country: 'IN',
    first_name: 'Pooja',
    last_name: 'Sharma',
    placement: "Sunrise Women's Clinic (stand-alone)",
  },
  {
    email: 'manager@demo.test',
    user_type: 'MANAGER',
    mobile: '9876500006',
    country: 'IN',
    first_name: 'Rahul',
    last_name: 'Desai',
    placement: 'linked to Arogya Clinic Pune and Afya Bora Kisumu',
  },
  {
    email: 'reviewer@demo.test',
    user_type: 'CERVAICAL_REVIEWER',
    mobile: '9876500007',
    country: 'IN',
    first_name: 'Lakshmi',
    last_name: 'Nair',
    placement: 'no organization (reviews every cervical exam)',
  },
];

export const DEMO_DEFAULT_PASSWORD = 'Demo@2026';
