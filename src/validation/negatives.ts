import { rng } from './seeded.js';

/**
 * The "below the line" population of a validation run: person names that are meant to be nobody
 * listed, drawn from small tables of common given and family names of many languages, written in
 * their own scripts and in their own order (family name first in Chinese, Japanese and Korean, no
 * space in Chinese and Korean). The tables are common names of each language (from public name
 * statistics and dictionaries), a few dozen a language: enough to make tens of thousands of distinct
 * full names, small enough to read. A seed draws the same population on every machine.
 */

export interface NameTable {
  locale: string;
  given: readonly string[];
  family: readonly string[];
  /** How a full name is written: given first (the default), family first, family first without a space. */
  order?: 'given-family' | 'family-given' | 'family-given-joined';
}

export const NAME_TABLES: readonly NameTable[] = [
  {
    locale: 'en',
    given: ['James', 'Emily', 'Oliver', 'Charlotte', 'Henry', 'Grace', 'Samuel', 'Lucy', 'Thomas', 'Hannah', 'Jack', 'Megan'],
    family: ['Thompson', 'Walker', 'Harris', 'Clarke', 'Wright', 'Robinson', 'Hughes', 'Edwards', 'Green', 'Hall', 'Wood', 'Turner'],
  },
  {
    locale: 'es',
    given: ['Alejandro', 'Lucía', 'Javier', 'Carmen', 'Sergio', 'Marta', 'Pablo', 'Elena', 'Diego', 'Paula', 'Andrés', 'Rocío'],
    family: ['García', 'Fernández', 'López', 'Martínez', 'Sánchez', 'Gómez', 'Ruiz', 'Díaz', 'Moreno', 'Álvarez', 'Romero', 'Navarro'],
  },
  {
    locale: 'pt',
    given: ['João', 'Beatriz', 'Tiago', 'Inês', 'Rafael', 'Mariana', 'Gonçalo', 'Leonor', 'Rodrigo', 'Carolina', 'Duarte', 'Matilde'],
    family: ['Silva', 'Santos', 'Ferreira', 'Pereira', 'Oliveira', 'Costa', 'Rodrigues', 'Martins', 'Sousa', 'Fernandes', 'Gonçalves', 'Carvalho'],
  },
  {
    locale: 'de',
    given: ['Lukas', 'Anna', 'Felix', 'Lena', 'Jonas', 'Marie', 'Maximilian', 'Sophie', 'Paul', 'Laura', 'Tobias', 'Katharina'],
    family: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann', 'Koch', 'Richter'],
  },
  {
    locale: 'fr',
    given: ['Louis', 'Camille', 'Hugo', 'Chloé', 'Théo', 'Manon', 'Mathis', 'Léa', 'Nathan', 'Inès', 'Baptiste', 'Zoé'],
    family: ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau', 'Simon', 'Laurent'],
  },
  {
    locale: 'it',
    given: ['Francesco', 'Giulia', 'Lorenzo', 'Chiara', 'Matteo', 'Francesca', 'Andrea', 'Sara', 'Riccardo', 'Martina', 'Tommaso', 'Alessia'],
    family: ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo'],
  },
  {
    locale: 'pl',
    given: ['Jakub', 'Zuzanna', 'Kacper', 'Julia', 'Szymon', 'Maja', 'Filip', 'Oliwia', 'Wojciech', 'Agnieszka', 'Bartosz', 'Magdalena'],
    family: ['Nowak', 'Kowalczyk', 'Wiśniewski', 'Wójcik', 'Kamiński', 'Lewandowski', 'Zieliński', 'Szymański', 'Woźniak', 'Dąbrowski', 'Kozłowski', 'Jankowski'],
  },
  {
    locale: 'tr',
    given: ['Emre', 'Zeynep', 'Burak', 'Elif', 'Can', 'Merve', 'Kaan', 'Ayşe', 'Onur', 'Büşra', 'Serkan', 'Gizem'],
    family: ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Yıldız', 'Yıldırım', 'Öztürk', 'Aydın', 'Özdemir', 'Arslan', 'Doğan'],
  },
  {
    locale: 'vi',
    given: ['Minh Anh', 'Thu Trang', 'Quốc Bảo', 'Ngọc Lan', 'Đức Huy', 'Thanh Hà', 'Gia Bảo', 'Phương Linh', 'Hoàng Nam', 'Bích Ngọc'],
    family: ['Nguyễn', 'Trần', 'Lê', 'Phạm', 'Hoàng', 'Huỳnh', 'Phan', 'Vũ', 'Võ', 'Đặng', 'Bùi', 'Đỗ'],
    order: 'family-given',
  },
  {
    locale: 'id',
    given: ['Budi', 'Siti', 'Agus', 'Dewi', 'Rudi', 'Sri', 'Hendra', 'Ratna', 'Eko', 'Wulan', 'Bayu', 'Indah'],
    family: ['Santoso', 'Wijaya', 'Setiawan', 'Kusuma', 'Pratama', 'Susanto', 'Hidayat', 'Saputra', 'Purnomo', 'Halim', 'Gunawan', 'Nugroho'],
  },
  {
    locale: 'nl',
    given: ['Daan', 'Emma', 'Sem', 'Tess', 'Bram', 'Sanne', 'Ruben', 'Fleur', 'Thijs', 'Lotte', 'Joris', 'Anouk'],
    family: ['de Jong', 'Jansen', 'de Vries', 'van den Berg', 'Bakker', 'Visser', 'Smit', 'Meijer', 'de Boer', 'Mulder', 'Bos', 'Vos'],
  },
  {
    locale: 'sw',
    given: ['Baraka', 'Neema', 'Juma', 'Upendo', 'Furaha', 'Zawadi', 'Imani', 'Amani', 'Jabari', 'Rehema', 'Tumaini', 'Bahati'],
    family: ['Mwangi', 'Otieno', 'Kamau', 'Wanjiku', 'Njoroge', 'Ochieng', 'Kiprono', 'Mutua', 'Achieng', 'Onyango', 'Kariuki', 'Chege'],
  },
  {
    locale: 'ar',
    given: ['يوسف', 'مريم', 'كريم', 'نور', 'طارق', 'ليلى', 'سامي', 'هدى', 'رامي', 'سلمى', 'وليد', 'رنا'],
    family: ['الحداد', 'النجار', 'الخطيب', 'العلي', 'الشامي', 'المصري', 'الزين', 'الحلبي', 'البيطار', 'الصباغ', 'القاسم', 'الدباغ'],
  },
  {
    locale: 'fa',
    given: ['آرش', 'نیلوفر', 'کاوه', 'شیرین', 'بهرام', 'پریسا', 'سیاوش', 'مهسا', 'فرهاد', 'لاله', 'داریوش', 'ترانه'],
    family: ['رضایی', 'محمدی', 'حسینی', 'احمدی', 'کریمی', 'موسوی', 'جعفری', 'صادقی', 'رحیمی', 'نوری', 'قاسمی', 'کاظمی'],
  },
  {
    locale: 'zh',
    given: ['伟', '芳', '娜', '敏', '静', '丽', '强', '磊', '洋', '艳', '勇', '军', '杰', '娟', '涛', '明'],
    family: ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周', '徐', '孙', '马', '朱', '胡', '郭'],
    order: 'family-given-joined',
  },
  {
    locale: 'ja',
    given: ['さくら', 'ひなた', 'あおい', 'ゆうと', 'はると', 'めい', 'りこ', 'そうた', 'ゆい', 'かいと', 'つむぎ', 'ひろと'],
    family: ['佐藤', '鈴木', '高橋', '田中', '伊藤', '渡辺', '山本', '中村', '小林', '加藤', '吉田', '山田'],
    order: 'family-given',
  },
  {
    locale: 'ko',
    given: ['민준', '서연', '도윤', '지우', '하준', '서윤', '시우', '하은', '지호', '수아', '예준', '지민'],
    family: ['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임', '한', '오'],
    order: 'family-given-joined',
  },
  {
    locale: 'ru',
    given: ['Александр', 'Анна', 'Дмитрий', 'Мария', 'Сергей', 'Елена', 'Андрей', 'Ольга', 'Михаил', 'Татьяна', 'Никита', 'Ирина'],
    family: ['Смирнов', 'Кузнецов', 'Попов', 'Васильев', 'Соколов', 'Михайлов', 'Новиков', 'Фёдоров', 'Морозов', 'Волков', 'Лебедев', 'Козлов'],
  },
  {
    locale: 'uk',
    given: ['Олександр', 'Оксана', 'Андрій', 'Наталія', 'Богдан', 'Ірина', 'Тарас', 'Юлія', 'Василь', 'Галина', 'Остап', 'Соломія'],
    family: ['Шевченко', 'Бойко', 'Коваленко', 'Бондаренко', 'Ткаченко', 'Кравченко', 'Олійник', 'Шевчук', 'Поліщук', 'Мельник', 'Лисенко', 'Марченко'],
  },
  {
    locale: 'bg',
    given: ['Георги', 'Мария', 'Иван', 'Десислава', 'Николай', 'Цветелина', 'Петър', 'Радостина', 'Стоян', 'Гергана', 'Христо', 'Милена'],
    family: ['Иванов', 'Георгиев', 'Димитров', 'Петров', 'Николов', 'Христов', 'Стоянов', 'Тодоров', 'Илиев', 'Ангелов', 'Атанасов', 'Колев'],
  },
  {
    locale: 'el',
    given: ['Γιώργος', 'Μαρία', 'Νίκος', 'Ελένη', 'Κώστας', 'Κατερίνα', 'Δημήτρης', 'Σοφία', 'Γιάννης', 'Αγγελική', 'Παναγιώτης', 'Δέσποινα'],
    family: ['Παπαδόπουλος', 'Παππάς', 'Οικονόμου', 'Γεωργίου', 'Νικολάου', 'Καραγιάννης', 'Βασιλείου', 'Δημητρίου', 'Ιωάννου', 'Αθανασίου', 'Μακρής', 'Κωνσταντίνου'],
  },
  {
    locale: 'he',
    given: ['נועם', 'תמר', 'איתי', 'מיכל', 'יונתן', 'שירה', 'עומר', 'נועה', 'אורי', 'הילה', 'גיל', 'רוני'],
    family: ['כהן', 'לוי', 'מזרחי', 'פרץ', 'ביטון', 'דהן', 'אברהם', 'פרידמן', 'אזולאי', 'מלכה', 'שפירא', 'גבאי'],
  },
  {
    locale: 'hi',
    given: ['राहुल', 'प्रिया', 'अमित', 'नेहा', 'विकास', 'पूजा', 'संजय', 'अंजलि', 'रोहित', 'कविता', 'अजय', 'सुनीता'],
    family: ['शर्मा', 'वर्मा', 'गुप्ता', 'सिंह', 'कुमार', 'मिश्रा', 'यादव', 'पाण्डेय', 'जोशी', 'अग्रवाल', 'चौहान', 'तिवारी'],
  },
  {
    locale: 'ta',
    given: ['அருண்', 'கவிதா', 'செந்தில்', 'லக்ஷ்மி', 'முருகன்', 'பிரியா', 'கார்த்திக்', 'மீனா', 'சுரேஷ்', 'தேவி', 'ராஜேஷ்', 'வள்ளி'],
    family: ['சுப்பிரமணியன்', 'ராமசாமி', 'கிருஷ்ணன்', 'வேலு', 'பழனிசாமி', 'சண்முகம்', 'நடராஜன்', 'கணேசன்', 'ஆறுமுகம்', 'பாலசுப்பிரமணியம்', 'சிவகுமார்', 'அண்ணாமலை'],
  },
  {
    locale: 'bn',
    given: ['অনিক', 'তানিয়া', 'রাকিব', 'সুমাইয়া', 'শুভ', 'নুসরাত', 'সাকিব', 'ফারহানা', 'তানভীর', 'মিম', 'রিয়াদ', 'জান্নাত'],
    family: ['চৌধুরী', 'বসু', 'সরকার', 'দাস', 'ঘোষ', 'মজুমদার', 'ভট্টাচার্য', 'চক্রবর্তী', 'সেন', 'রায়', 'পাল', 'মণ্ডল'],
  },
  {
    locale: 'th',
    given: ['สมชาย', 'สมศรี', 'ประเสริฐ', 'มาลี', 'วิชัย', 'สุดา', 'ธนากร', 'พิมพ์ชนก', 'อนุชา', 'กาญจนา', 'ณัฐพล', 'รัตนา'],
    family: ['ศรีสุข', 'วงศ์สวัสดิ์', 'แก้วมณี', 'ทองดี', 'บุญมา', 'สุขสวัสดิ์', 'จันทร์เพ็ญ', 'รุ่งเรือง', 'มีสุข', 'ใจดี', 'พรหมมา', 'ศรีวงศ์'],
  },
  {
    locale: 'hy',
    given: ['Արամ', 'Անի', 'Դավիթ', 'Նարե', 'Տիգրան', 'Մարիամ', 'Գոռ', 'Լուսինե', 'Հայկ', 'Սոնա', 'Արմեն', 'Գայանե'],
    family: ['Հովհաննիսյան', 'Սարգսյան', 'Գրիգորյան', 'Պետրոսյան', 'Հարությունյան', 'Խաչատրյան', 'Կարապետյան', 'Վարդանյան', 'Մկրտչյան', 'Ավետիսյան', 'Ղազարյան', 'Առաքելյան'],
  },
  {
    locale: 'ka',
    given: ['გიორგი', 'ნინო', 'დავით', 'მარიამ', 'ლუკა', 'ანა', 'ნიკა', 'თამარ', 'ლევან', 'ეკატერინე', 'ირაკლი', 'სალომე'],
    family: ['ბერიძე', 'კაპანაძე', 'გელაშვილი', 'მაისურაძე', 'გიორგაძე', 'ლომიძე', 'წიკლაური', 'ბოლქვაძე', 'ნოზაძე', 'ხუციშვილი', 'შენგელია', 'ჯავახიშვილი'],
  },
];

export interface NegativeName {
  locale: string;
  name: string;
  birthDate: string;
}

function fullName(table: NameTable, given: string, family: string): string {
  if (table.order === 'family-given-joined') return family + given;
  if (table.order === 'family-given') return `${family} ${given}`;
  return `${given} ${family}`;
}

/**
 * `size` names, an equal share per locale (the remainder to the first locales), each with a birth
 * date between 1935 and 2004; the same seed gives the same names. A locale's names are drawn with
 * replacement: a small table repeats full names in a large population, as real populations do.
 */
export function negativeNames(size: number, seed: number, tables: readonly NameTable[] = NAME_TABLES): NegativeName[] {
  const rand = rng(seed ^ 0x5eed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const out: NegativeName[] = [];
  tables.forEach((table, i) => {
    const share = Math.floor(size / tables.length) + (i < size % tables.length ? 1 : 0);
    for (let k = 0; k < share; k++) {
      const name = fullName(table, pick(table.given), pick(table.family));
      const year = 1935 + Math.floor(rand() * 70);
      const month = 1 + Math.floor(rand() * 12);
      const day = 1 + Math.floor(rand() * 28);
      out.push({
        locale: table.locale,
        name,
        birthDate: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      });
    }
  });
  return out;
}
